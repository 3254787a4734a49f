/**
 * The API's check of a manual run's inputs: the total size first (413 RUN_INPUTS_TOO_LARGE),
 * then the trigger's declarations (400 INVALID_PARAMETER naming every issue). Messages and paths
 * never quote a key that is not of the input-name form.
 */
import { LIMITS } from '../../definitions/limits.js';
import {
  applyRunInputs,
  oversizedRunInput,
  triggerInputs,
  type Plan,
} from '../../definitions/runtime/index.js';
import { invalidParameter, SkillflowError } from '../../lib/errors/skillflow-error.js';

/**
 * The inputs a run of `plan` starts with (defaults filled in), or the error to answer. `root`
 * names where the inputs came from in issue paths (an event's `data`); `details` are added to
 * the error's (the definition an event would start).
 */
export function checkedRunInputs(
  plan: Plan,
  provided: Record<string, unknown> = {},
  { root = 'inputs', details = {} }: { root?: string; details?: Record<string, unknown> } = {},
): Record<string, unknown> {
  const specs = triggerInputs(plan.trigger);
  const oversized = oversizedRunInput(provided, LIMITS.maxRunInputChars);
  if (oversized)
    throw new SkillflowError('RUN_INPUTS_TOO_LARGE', undefined, {
      issues: [
        root === 'inputs' ? oversized : { ...oversized, path: oversized.path.replace(/^inputs/, root) },
      ],
      max_chars: LIMITS.maxRunInputChars,
      ...details,
    });
  const checked = applyRunInputs(specs, provided, root);
  if (!checked.ok) {
    const err = invalidParameter(checked.issues);
    throw Object.keys(details).length === 0
      ? err
      : new SkillflowError(err.code, err.message, { ...err.details, ...details });
  }
  return checked.inputs;
}

/** An event's data fields that `plan`'s trigger declares as run inputs (the others are not its inputs). */
export function declaredFields(plan: Plan, data: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const specs = triggerInputs(plan.trigger);
  return Object.fromEntries(Object.entries(data).filter(([name]) => Object.hasOwn(specs, name)));
}
