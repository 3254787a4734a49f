/** The catalogue code and message of a failed step, read from Temporal's failure chain. */
import { ApplicationFailure } from '@temporalio/workflow';
import { TemplateBudgetError, type PlanStep } from '../definitions/runtime/index.js';
import type { StepError } from './progress.js';

export function stepError(err: unknown): StepError {
  // Thrown by the renderer inside this workflow task; its message quotes nothing the user wrote.
  if (err instanceof TemplateBudgetError) return { code: err.code, message: err.message };
  let cur: unknown = err;
  for (let i = 0; i < 6 && cur; i++) {
    if (cur instanceof ApplicationFailure && cur.type) return { code: cur.type, message: cur.message };
    cur = (cur as { cause?: unknown }).cause;
  }
  return { code: 'INTERNAL', message: 'The step failed.' };
}

/**
 * The output of a step whose failure was tolerated (its own `continue_on_error`, or its group's):
 * a skill step's uniform shape, so later steps can still read a count of 0; else the error.
 */
export function failedOutput(step: PlanStep, error: StepError): Record<string, unknown> {
  return step.kind === 'skill' ? { results: [], result_count: 0, raw: null, error } : { error };
}
