/**
 * The `FailedStep` search attribute: as a run fails, the id of its top-level step that failed
 * (the step that holds a failed inner step, for a loop or group), so the API can list failed
 * runs by step without reading their histories. A step id is the author's `lower_snake` label,
 * never content. Runs started before this (no `FAILED_STEP_PATCH` marker) upsert nothing, so
 * their histories replay unchanged. Deterministic workflow code.
 */
import { patched, upsertSearchAttributes } from '@temporalio/workflow';

/** Patch id of the upsert as a run fails. */
export const FAILED_STEP_PATCH = 'failed-step-attribute';

/** The search attribute's name (lib/temporal/search-attributes.ts, which workflows may not import). */
export const FAILED_STEP_ATTRIBUTE = 'FailedStep';

/** Records the failed top-level step on the run's search attributes (new runs only). */
export function recordFailedStep(step: string): void {
  if (patched(FAILED_STEP_PATCH)) upsertSearchAttributes({ [FAILED_STEP_ATTRIBUTE]: [step] });
}
