/**
 * Where a task's per-step progress is read from, without the workflow writing history for it:
 *
 * - a run that has not completed its first workflow task (queued: a start delay, or no worker
 *   has picked it up): the memo the API set at start, every step pending;
 * - a live `runDefinition` run: its `progress` query (answered by the worker from its cache),
 *   with a short deadline. When no worker answers in time (all workers down or busy), the view
 *   falls back to the memo and still reports the run as `running`, from Temporal's describe;
 * - a completed run: the steps in its result;
 * - a failed or cancelled run: the memo the workflow writes once as it ends (runs started before
 *   `PROGRESS_BY_QUERY_PATCH` kept it current at every step), else the query (a terminated run);
 * - a skill call: its memo (`runSkillCall` writes it at start and end); while its activity runs,
 *   the stage named in the activity's last heartbeat (`{ stage }`, decoded with the payload
 *   codec) is added to the running step.
 *
 * Lists never query: they only need queued-or-running, which describe tells without a worker,
 * and they describe at most `LIST_DESCRIBE_CONCURRENCY` open runs at a time.
 */
import type { WorkflowExecutionDescription, WorkflowExecutionInfo } from '@temporalio/client';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow/index.js';
import type { TemporalClient } from '../../lib/temporal/client.js';
import { PROGRESS_MEMO_KEY, type RunProgress, type StepProgress } from '../../workflows/progress.js';
import { progressQuery } from '../../workflows/run-definition.js';
import { QUEUED_MEMO_KEY } from '../../workflows/run-slots.js';

/** How long a task view waits for a worker to answer the progress query. */
export const PROGRESS_QUERY_DEADLINE_MS = 1500;

/** Open runs a run list describes at once (only open runs are described). */
export const LIST_DESCRIBE_CONCURRENCY = 8;

/**
 * Events of a run whose first workflow task completed (started, task scheduled, started,
 * completed): from then on its first step has left `pending`.
 */
const FIRST_TASK_COMPLETED_LENGTH = 4;

/** Whether a run's memo says it waits for a flow-control slot (run-slots.ts). */
export function memoQueued(memo: Record<string, unknown> | undefined): boolean {
  return memo?.[QUEUED_MEMO_KEY] === true;
}

/** The progress recorded in a run's memo (at start, at the end, or by an older run). */
export function memoSteps(memo: Record<string, unknown> | undefined): StepProgress[] {
  return (memo?.[PROGRESS_MEMO_KEY] as RunProgress | undefined)?.steps ?? [];
}

/** Whether a run's first workflow task completed, i.e. one of its steps has started. */
export function hasStarted(historyLength: number, steps: readonly StepProgress[]): boolean {
  return historyLength >= FIRST_TASK_COMPLETED_LENGTH || steps.some((s) => s.status !== 'pending');
}

/** Per-step progress of one task, whether it has started, and whether it waits for a slot. */
export interface TaskProgress {
  steps: StepProgress[];
  started: boolean;
  queued?: boolean;
}

/** Reads task progress from Temporal for the task and run views (see the header). */
export class RunProgressReader {
  constructor(private readonly temporal: TemporalClient) {}

  /**
   * Progress of one task from its describe and, for a completed run, its result.
   * `isSkillCall` tasks keep their own memo.
   */
  async forTask(
    desc: WorkflowExecutionDescription,
    isSkillCall: boolean,
    result: unknown,
  ): Promise<TaskProgress> {
    const recorded = memoSteps(desc.memo);
    const started = hasStarted(desc.historyLength, recorded);
    if (isSkillCall && desc.status.name === 'RUNNING')
      return { steps: await this.withStage(desc, recorded), started };
    if (isSkillCall || !started) return { steps: recorded, started };
    const resultSteps = (result as { steps?: StepProgress[] } | null)?.steps;
    if (desc.status.name === 'COMPLETED' && Array.isArray(resultSteps))
      return { steps: resultSteps, started };
    const closedWithMemo = desc.status.name !== 'RUNNING' && recorded.some((s) => s.status !== 'pending');
    if (closedWithMemo) return { steps: recorded, started };
    const live = await this.query(desc);
    const queued = desc.status.name === 'RUNNING' && (live ? live.queued === true : memoQueued(desc.memo));
    return { steps: live?.steps ?? recorded, started, ...(queued && { queued }) };
  }

  /**
   * Whether each run of a list has started. Closed runs need nothing; open ones are described
   * (history length, no worker needed), `LIST_DESCRIBE_CONCURRENCY` at a time.
   */
  async startedOf(runs: readonly WorkflowExecutionInfo[]): Promise<boolean[]> {
    // A run waiting for a flow-control slot has not started, whatever its history length.
    const waiting = runs.map((wf) => wf.status.name === 'RUNNING' && memoQueued(wf.memo));
    const out = runs.map(
      (wf, i) => wf.status.name !== 'RUNNING' || (!waiting[i] && hasStarted(0, memoSteps(wf.memo))),
    );
    const open = runs.flatMap((_, i) => (out[i] || waiting[i] ? [] : [i]));
    let next = 0;
    const lane = async () => {
      for (let k = next++; k < open.length; k = next++) {
        const i = open[k]!;
        const wf = runs[i]!;
        try {
          const desc = await this.temporal.client.workflow.getHandle(wf.workflowId, wf.runId).describe();
          out[i] = !memoQueued(desc.memo) && hasStarted(desc.historyLength, memoSteps(desc.memo));
        } catch {
          // Gone or unreachable since the list was read: keep what the list says (queued).
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(LIST_DESCRIBE_CONCURRENCY, open.length) }, lane));
    return out;
  }

  /** A running skill call's steps with the stage of its pending activity's last heartbeat. */
  private async withStage(
    desc: WorkflowExecutionDescription,
    steps: StepProgress[],
  ): Promise<StepProgress[]> {
    const details = desc.raw.pendingActivities?.[0]?.heartbeatDetails?.payloads;
    if (!details?.length) return steps;
    let stage: unknown;
    try {
      const beat = await decodeFromPayloadsAtIndex<unknown>(
        this.temporal.client.options.loadedDataConverter,
        0,
        details,
      );
      stage = (beat as { stage?: unknown } | null)?.stage;
    } catch {
      return steps;
    }
    if (typeof stage !== 'string' || !/^[a-z_]{1,40}$/.test(stage)) return steps;
    return steps.map((s) => ({ ...s, status: 'running', stage }));
  }

  /** The live progress of a run, or undefined when no worker answers before the deadline. */
  private async query(desc: WorkflowExecutionDescription): Promise<RunProgress | undefined> {
    const handle = this.temporal.client.workflow.getHandle(desc.workflowId, desc.runId);
    try {
      const progress = await this.temporal.client.withDeadline(Date.now() + PROGRESS_QUERY_DEADLINE_MS, () =>
        handle.query(progressQuery),
      );
      return progress;
    } catch {
      return undefined;
    }
  }
}
