/**
 * `#runs`: your runs across definitions (GET /v1/runs), newest first (open runs first), filtered
 * by workflow, status, trigger, failed step and start date; "More runs" loads the next page with
 * the same filters. The filters live in the hash (`#runs?status=failed`), so they survive a
 * reload. Each run links to its task page, its workflow to the workflow's page.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { RunSearchPage } from '../../../sdk/generated.js';
import { errorMessage } from '../api.js';
import { TableScroll } from '../skill/views.js';
import { Alert, Empty, HeadRow, LoadStatus } from '../ui.js';
import { listWorkflows, searchRuns } from '../workflow/api.js';
import { RunTaskCell, RunTimingCells } from '../workflow/RunCells.js';
import {
  cleanFilters,
  filtersFromHash,
  hashOfFilters,
  RUN_STATUSES,
  RUN_TRIGGERS,
  searchOf,
  type RunFilterValues,
} from '../workflow/run-filters.js';
import { useLoad } from '../workflow/use-load.js';

type Run = RunSearchPage['runs'][number];

/** Runs per page. */
export const RUNS_PAGE_SIZE = 10;

/** The filters of the form, as the hash holds them. */
function valuesOf(form: HTMLFormElement): RunFilterValues {
  const data = new FormData(form);
  const text = (name: string) => {
    const value = data.get(name);
    return typeof value === 'string' ? value : undefined;
  };
  return cleanFilters({
    workflow_id: text('workflow_id'),
    status: text('status'),
    trigger: text('trigger'),
    failed_step: text('failed_step'),
    from: text('from'),
    to: text('to'),
  });
}

/** The filters in the location hash, followed as it changes (a search, back, a pasted link). */
function useHashFilters(): RunFilterValues {
  const [filters, setFilters] = useState(() => filtersFromHash(location.hash));
  useEffect(() => {
    const follow = () => setFilters(filtersFromHash(location.hash));
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return filters;
}

function RunFilters(props: {
  auth: string;
  initial: RunFilterValues;
  onSearch: (f: RunFilterValues) => void;
}) {
  const v = props.initial;
  const workflows = useLoad(() => listWorkflows(props.auth), [props.auth]);
  return (
    <form
      class="run-form"
      aria-labelledby="run-filters-title"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSearch(valuesOf(e.currentTarget));
      }}
    >
      <h2 id="run-filters-title">Filters</h2>
      <div class="field">
        <label for="runs-workflow">Workflow</label>
        <select id="runs-workflow" name="workflow_id">
          <option value="">Any workflow</option>
          {workflows.state === 'ready'
            ? workflows.value.workflows.map((w) => (
                <option key={w.id} value={w.id} selected={w.id === v.workflow_id}>
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
          {RUN_STATUSES.map((s) => (
            <option key={s} value={s} selected={s === v.status}>
              {s.replace('_', ' ')}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="runs-trigger">How it started</label>
        <select id="runs-trigger" name="trigger">
          <option value="">Any way</option>
          {Object.entries(RUN_TRIGGERS).map(([value, words]) => (
            <option key={value} value={value} selected={value === v.trigger}>
              {words}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="runs-failed-step">Failed step (step id)</label>
        <input
          id="runs-failed-step"
          name="failed_step"
          type="text"
          autocomplete="off"
          spellcheck={false}
          defaultValue={v.failed_step ?? ''}
        />
      </div>
      <div class="field">
        <label for="runs-from">Started from (day)</label>
        <input id="runs-from" name="from" type="date" defaultValue={v.from ?? ''} />
      </div>
      <div class="field">
        <label for="runs-to">Started until (day, included)</label>
        <input id="runs-to" name="to" type="date" defaultValue={v.to ?? ''} />
      </div>
      <button type="submit">Search runs</button>
    </form>
  );
}

/** How a run started, in words (an unknown way as the API names it). */
function triggerWords(trigger: string | null): string {
  if (trigger === null) return '—';
  return Object.hasOwn(RUN_TRIGGERS, trigger) ? RUN_TRIGGERS[trigger as keyof typeof RUN_TRIGGERS] : trigger;
}

function RunTable(props: { runs: Run[]; titles: Map<string, string> }) {
  return (
    <TableScroll label="Runs">
      <table class="runs">
        <caption>Your runs, newest first</caption>
        <HeadRow
          columns={['Task', 'Workflow', 'Status', 'How it started', 'Failed step', 'Started', 'Took']}
        />
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
              <td class="run-trigger">{triggerWords(r.trigger)}</td>
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
  const values = useHashFilters();
  const hash = hashOfFilters(values);
  // One search per distinct hash: the object is rebuilt only when the filters change.
  const filters = useMemo(() => ({ hash, search: searchOf(values) }), [hash]);
  const first = useLoad(() => searchRuns(props.auth, filters.search, RUNS_PAGE_SIZE), [props.auth, filters]);
  const workflows = useLoad(() => listWorkflows(props.auth), [props.auth]);
  // Later pages of the current filters (a new search starts over).
  const [more, setMore] = useState<{ of: typeof filters; runs: Run[]; next: string | null } | null>(null);
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
      const page = await searchRuns(props.auth, filters.search, RUNS_PAGE_SIZE, token);
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
        key={hash}
        auth={props.auth}
        initial={values}
        onSearch={(f) => {
          setFailure(null);
          // The hash change brings the search (and a reload keeps it).
          location.hash = hashOfFilters(f);
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
