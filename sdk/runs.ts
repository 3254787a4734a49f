/**
 * Runs (needs the `workflows` scope): `rerun` starts a new run of a closed run's plan snapshot
 * from a step (POST /v1/runs/{run_id}/rerun). The steps before `fromStep` (default: the first one
 * that failed) keep their recorded outputs and make no call; a step whose inputs change runs
 * again. A run still open throws a 409 `CONFLICT` {@link SkillflowApiError}; a step, input or
 * step input that does not fit, a 422 `INVALID_RERUN` naming the paths in `details.issues`.
 */
import type { RerunStarted } from './generated.js';
import { seg, type Transport } from './http.js';

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
  /** Re-runs the closed run `runId` from a step; poll the answer's `task_id` with `client.tasks`. */
  rerun(runId: string, options?: RerunOptions): Promise<RerunStarted>;
}

/** Creates `client.runs`. */
export function createRunsClient(http: Transport): RunsClient {
  return {
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
  };
}
