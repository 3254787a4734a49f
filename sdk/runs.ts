/**
 * Your workflow runs (needs the `workflows` scope). `list` and `iterate` search them across
 * definitions (GET /v1/runs): one page
 * per `list` call, newest first (open runs before closed ones), filtered by definition, status,
 * failed step and start time; `iterate` walks every page. A bad filter throws a 400
 * `INVALID_PARAMETER` {@link SkillflowApiError} naming the parameter; so does a page token used
 * with other filters.
 */
import type { RerunStarted, RunSearchPage, RunStep } from './generated.js';
import { seg, type Transport } from './http.js';

/** One run of a search. */
export type RunListItem = RunSearchPage['runs'][number];

/** What `client.runs.list` filters on. */
export interface RunFilters {
  /** Only runs of this definition (`wf_...`). */
  workflowId?: string;
  /**
   * `running`: open runs (listed as `queued` or `running`); `failed`: every run listed as failed
   * (failed, terminated or timed out); `timed_out`: only those that timed out.
   */
  status?: 'running' | 'completed' | 'failed' | 'cancelled' | 'timed_out';
  /** Only failed runs whose top-level step of this id failed. */
  failedStep?: string;
  /** Only runs started after this instant (a Date or RFC 3339 text). */
  startedAfter?: Date | string;
  /** Only runs started before this instant. */
  startedBefore?: Date | string;
}

/** What a re-run changes. */
export interface RerunOptions {
  /** A top-level step id: this step and every later one run again. */
  fromStep?: string;
  /** Run inputs to change, by name (the others keep the earlier run's values). */
  inputs?: Record<string, unknown>;
  /** A skill step's whole new input, by step id. */
  stepInputs?: Record<string, Record<string, unknown>>;
}

/** `client.runs`. */
export interface RunsClient {
  /**
   * One page: `limit` runs (1-100, default 20) and `next_page_token`, to pass back as `pageToken`
   * with the same filters for the next page (null on the last).
   */
  list(options?: RunFilters & { limit?: number; pageToken?: string }): Promise<RunSearchPage>;
  /** Every matching run, page by page (`pageSize` per request, default 100). */
  iterate(options?: RunFilters & { pageSize?: number }): AsyncGenerator<RunListItem>;
  /** Re-runs the closed run `runId` from a step; poll the answer's `task_id` with `client.tasks`. */
  rerun(runId: string, options?: RerunOptions): Promise<RerunStarted>;
  /**
   * One step of the run `runId`: the input its call was given and what it answered, while the run
   * runs and after; a loop element's inner step is named `loop[2].inner`.
   */
  step(runId: string, stepId: string): Promise<RunStep>;
}

const instant = (v: Date | string | undefined) => (v instanceof Date ? v.toISOString() : v);

/** Creates `client.runs`. */
export function createRunsClient(http: Transport): RunsClient {
  const list: RunsClient['list'] = async (o = {}) =>
    (
      await http.send<RunSearchPage>({
        method: 'GET',
        path: '/v1/runs',
        query: {
          workflow_id: o.workflowId,
          status: o.status,
          failed_step: o.failedStep,
          started_after: instant(o.startedAfter),
          started_before: instant(o.startedBefore),
          limit: o.limit === undefined ? undefined : String(o.limit),
          page_token: o.pageToken,
        },
      })
    ).body;
  return {
    list,
    rerun: async (runId, options = {}) =>
      (
        await http.send<RerunStarted>({
          method: 'POST',
          path: `/v1/runs/${seg(runId)}/rerun`,
          json: {
            ...(options.fromStep !== undefined && { from_step: options.fromStep }),
            ...(options.inputs && { inputs: options.inputs }),
            ...(options.stepInputs && { step_inputs: options.stepInputs }),
          },
        })
      ).body,
    step: async (runId, stepId) =>
      (await http.send<RunStep>({ method: 'GET', path: `/v1/runs/${seg(runId)}/steps/${seg(stepId)}` })).body,
    async *iterate({ pageSize = 100, ...filters } = {}) {
      let pageToken: string | undefined;
      do {
        const page = await list({ ...filters, limit: pageSize, ...(pageToken && { pageToken }) });
        yield* page.runs;
        pageToken = page.next_page_token ?? undefined;
      } while (pageToken);
    },
  };
}
