/**
 * Run progress as the task API reports it. Kept in the workflow's memo (encrypted by the
 * payload codec like every payload) so a run can be polled without a worker, open or closed.
 */

import type { PlanStep } from '../definitions/runtime/index.js';

/** `reused`: a re-run took over the output an earlier run recorded, so the step did not run. */
export type StepStatus = 'pending' | 'running' | 'completed' | 'failed' | 'skipped' | 'cancelled' | 'reused';

export interface StepError {
  code: string;
  message: string;
}

export interface StepProgress {
  id: string;
  status: StepStatus;
  started_at: string | null;
  finished_at: string | null;
  /** Small, non-content summary: counts only (never results or message text). */
  output_summary: Record<string, number | boolean> | null;
  error: StepError | null;
  /**
   * A running long-running skill call only: the stage its activity named in its last heartbeat
   * (e.g. `querying_upstream`), read by the task view; never content.
   */
  stage?: string;
  /** A wait step that started: the instant it sleeps (or slept) until. */
  wake_at?: string;
  /** A for_each step: its elements counted, and the first failed ones (index, inner step, error). */
  elements?: {
    total: number;
    completed: number;
    failed: number;
    running: number;
    /** A re-run's loop: elements whose earlier outputs it took over (counted in `completed`). */
    reused?: number;
    failures: Array<{ index: number; step: string; error: StepError }>;
  };
  /** An inner step of a parallel group: the group's id. */
  group?: string;
  /** A step of an `on_error` handler: the id of the step whose failure it handles. */
  handler?: string;
  /** A failed step whose `on_error` handler ran to its end (the run went on). */
  handled?: boolean;
  /** A `use_workflow` step that started its child: the child run's task id. */
  child_task_id?: string;
  /** A `wait_for_approval` step that started: when its wait ends without a decision. */
  approval?: { expires_at: string };
  /** A `wait_for_event` step that started: the event it waits for and when its wait ends. */
  event?: { name: string; expires_at: string };
}

export interface RunProgress {
  steps: StepProgress[];
  /** The run waits for a flow-control slot (run-slots.ts). */
  queued?: boolean;
}

export const PROGRESS_MEMO_KEY = 'progress';

/** A step that has not started. */
export function pendingStep(id: string): StepProgress {
  return { id, status: 'pending', started_at: null, finished_at: null, output_summary: null, error: null };
}

/** Summarises a step output without copying content: numeric and boolean top-level fields. */
export function summarise(output: unknown): Record<string, number | boolean> | null {
  if (!output || typeof output !== 'object' || Array.isArray(output)) return null;
  const summary: Record<string, number | boolean> = {};
  for (const [key, value] of Object.entries(output)) {
    if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean')
      summary[key] = value;
  }
  return Object.keys(summary).length ? summary : null;
}

/** A step the progress lists, with the group or handler it belongs to. */
export interface ListedStep {
  step: PlanStep;
  group?: string;
  handler?: string;
}

/**
 * The steps the progress lists, in document order: every step but a for_each's inner steps
 * (counted in the loop's own entry); a parallel group's inner steps follow it, and a step's
 * `on_error` handler steps follow the step.
 */
export function listedSteps(steps: readonly PlanStep[], within: Omit<ListedStep, 'step'> = {}): ListedStep[] {
  return steps.flatMap((step) => [
    { step, ...within },
    ...(step.kind === 'parallel' ? listedSteps(step.steps, { group: step.id }) : []),
    ...(step.onError ? listedSteps(step.onError, { handler: step.id }) : []),
  ]);
}

/** The progress entries of a plan, pending: inner steps name their group or handled step. */
export function pendingSteps(steps: readonly PlanStep[]): StepProgress[] {
  return listedSteps(steps).map(({ step, group, handler }) => ({
    ...pendingStep(step.id),
    ...(group !== undefined && { group }),
    ...(handler !== undefined && { handler }),
  }));
}
