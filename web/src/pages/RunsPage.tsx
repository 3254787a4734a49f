/**
 * `#runs`: your runs across definitions (GET /v1/runs), newest first (open runs first), filtered
 * by workflow, status, failed step and start date; "More runs" loads the next page with the same
 * filters. Each run links to its task page, its workflow to the workflow's page.
 */
import { useState } from 'preact/hooks';
import type { RunSearchPage } from '../../../sdk/generated.js';
import { errorMessage } from '../api.js';
import { TableScroll } from '../skill/views.js';
import { Alert, Empty, HeadRow, LoadStatus } from '../ui.js';
import { listWorkflows, searchRuns, type RunSearch } from '../workflow/api.js';
import { RunTaskCell, RunTimingCells } from '../workflow/RunCells.js';
import { useLoad } from '../workflow/use-load.js';

type Run = RunSearchPage['runs'][number];

/** Runs per page. */
export const RUNS_PAGE_SIZE = 10;
const STATUSES = ['running', 'completed', 'failed', 'cancelled', 'timed_out'];

/** Local midnight of a `yyyy-mm-dd` day, `days` later, as an RFC 3339 instant. */
function dayStart(day: string, days = 0): string | undefined {
  if (!day) return undefined;
  const at = new Date(`${day}T00:00:00`);
  at.setDate(at.getDate() + days);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

/** The filters of the form: the "to" day is included (before the next day's midnight). */
function filtersOf(form: HTMLFormElement): RunSearch {
  const text = (name: string) => {
    const value = new FormData(form).get(name);
    return typeof value === 'string' ? value.trim() : '';
  };
  const filters: RunSearch = {
    workflow_id: text('workflow_id'),
    status: text('status'),
    failed_step: text('failed_step'),
    started_after: dayStart(text('from')),
    started_before: dayStart(text('to'), 1),
  };
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v));
}

function RunFilters(props: { auth: string; onSearch: (f: RunSearch) => void }) {
  const workflows = useLoad(() => listWorkflows(props.auth), [props.auth]);
  return (
    <form
      class="run-form"
      aria-labelledby="run-filters-title"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSearch(filtersOf(e.currentTarget));
      }}
    >
      <h2 id="run-filters-title">Filters</h2>
      <div class="field">
        <label for="runs-workflow">Workflow</label>
        <select id="runs-workflow" name="workflow_id">
          <option value="">Any workflow</option>
          {workflows.state === 'ready'
            ? workflows.value.workflows.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.title}
                </option>
              ))
            : null}
        </select>
      </div>
      <div class="field">
        <label for="runs-status">Status</label>
        <select id="runs-status" name="status">
          <option value="">Any status</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s.replace('_', ' ')}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="runs-failed-step">Failed step (step id)</label>
        <input id="runs-failed-step" name="failed_step" type="text" autocomplete="off" spellcheck={false} />
      </div>
      <div class="field">
        <label for="runs-from">Started from (day)</label>
        <input id="runs-from" name="from" type="date" />
      </div>
      <div class="field">
        <label for="runs-to">Started until (day, included)</label>
        <input id="runs-to" name="to" type="date" />
      </div>
      <button type="submit">Search runs</button>
    </form>
  );
}

function RunTable(props: { runs: Run[]; titles: Map<string, string> }) {
  return (
    <TableScroll label="Runs">
      <table class="runs">
        <caption>Your runs, newest first</caption>
        <HeadRow columns={['Task', 'Workflow', 'Status', 'Failed step', 'Started', 'Took']} />
        <tbody>
          {props.runs.map((r) => (
            <tr key={r.task_id} data-task={r.task_id}>
              <RunTaskCell taskId={r.task_id} />
              <td>
                {r.workflow_id ? (
                  <a href={`#workflows/${encodeURIComponent(r.workflow_id)}`}>
                    {props.titles.get(r.workflow_id) ?? r.workflow_id}
                  </a>
                ) : (
                  '—'
                )}
              </td>
              <td class="run-status" data-status={r.status}>
                {r.status}
              </td>
              <td>{r.failed_step ?? '—'}</td>
              <RunTimingCells startedAt={r.started_at} finishedAt={r.finished_at} />
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

export function RunsPage(props: { auth: string }) {
  const [filters, setFilters] = useState<RunSearch>({});
  const first = useLoad(() => searchRuns(props.auth, filters, RUNS_PAGE_SIZE), [props.auth, filters]);
  const workflows = useLoad(() => listWorkflows(props.auth), [props.auth]);
  // Later pages of the current filters (a new search starts over).
  const [more, setMore] = useState<{ of: RunSearch; runs: Run[]; next: string | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const extra = more?.of === filters ? more : null;
  const runs = first.state === 'ready' ? [...first.value.runs, ...(extra?.runs ?? [])] : [];
  const next = first.state === 'ready' ? (extra ? extra.next : first.value.next_page_token) : null;
  const titles = new Map(
    workflows.state === 'ready' ? workflows.value.workflows.map((w) => [w.id, w.title] as const) : [],
  );
  const loadMore = async (token: string) => {
    setBusy(true);
    setFailure(null);
    try {
      const page = await searchRuns(props.auth, filters, RUNS_PAGE_SIZE, token);
      setMore({ of: filters, runs: [...(extra?.runs ?? []), ...page.runs], next: page.next_page_token });
    } catch (e) {
      setFailure(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="runs-title">
      <h1 id="runs-title">Runs</h1>
      <RunFilters
        auth={props.auth}
        onSearch={(f) => {
          setFailure(null);
          setFilters(f);
        }}
      />
      <LoadStatus load={first} loading="Loading runs…" />
      {first.state === 'ready' && runs.length === 0 ? (
        <Empty title="No runs match.">
          Try other filters, or start a run from a <a href="#workflows">workflow's page</a>.
        </Empty>
      ) : null}
      {runs.length > 0 ? <RunTable runs={runs} titles={titles} /> : null}
      {next ? (
        <button type="button" class="secondary" disabled={busy} onClick={() => void loadMore(next)}>
          {busy ? 'Loading…' : 'More runs'}
        </button>
      ) : null}
      <Alert message={failure} />
    </section>
  );
}
