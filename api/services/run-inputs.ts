/**
 * The API's check of a manual run's inputs: the total size first (413 RUN_INPUTS_TOO_LARGE),
 * then the trigger's declarations (400 INVALID_PARAMETER naming every issue). Messages and paths
 * never quote a key that is not of the input-name form.
 */
import { LIMITS } from '../../definitions/limits.js';
import { applyRunInputs, oversizedRunInput, type Plan } from '../../definitions/runtime/index.js';
import { invalidParameter, SkillflowError } from '../../lib/errors/skillflow-error.js';

/** The inputs a run of `plan` starts with (defaults filled in), or the error to answer. */
export function checkedRunInputs(
  plan: Plan,
  provided: Record<string, unknown> = {},
): Record<string, unknown> {
  const specs = plan.trigger.type === 'manual' ? plan.trigger.inputs : {};
  const oversized = oversizedRunInput(provided, LIMITS.maxRunInputChars);
  if (oversized)
    throw new SkillflowError('RUN_INPUTS_TOO_LARGE', undefined, {
      issues: [oversized],
      max_chars: LIMITS.maxRunInputChars,
    });
  const checked = applyRunInputs(specs, provided);
  if (!checked.ok) throw invalidParameter(checked.issues);
  return checked.inputs;
}
