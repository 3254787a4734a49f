/**
 * Which slot a run asks its owner's gate for: its concurrency group (the definition and the
 * key rendered from the run inputs) when its plan declares `concurrency`, and whether it counts
 * toward the owner's cap. A run with neither never talks to the gate, so runs started before flow
 * control (no such plan field or input) issue the same commands on replay. Deterministic
 * workflow code.
 */
import { ApplicationFailure } from '@temporalio/workflow';
import { resolveInput, type InputTemplate, type RunScope } from '../definitions/runtime/index.js';
import type { SlotRequest } from './flow-queue.js';
import type { RunDefinitionInput } from './run-definition.js';
import { RunSlots } from './run-slots.js';
import { stepError } from './step-error.js';

/** The longest rendered concurrency key. */
export const MAX_CONCURRENCY_KEY_CHARS = 256;

/** The run's slots, or undefined when it is not flow-controlled. */
export function slotsOf(
  args: RunDefinitionInput,
  scope: RunScope,
  onQueued: (queued: boolean) => void,
): RunSlots | undefined {
  const { concurrency } = args.plan;
  const request: Omit<SlotRequest, 'run' | 'resume'> = {};
  if (concurrency) {
    request.group = `${args.definitionId}/${keyOf(concurrency.key ? renderKey(concurrency.key, scope) : '')}`;
    request.limit = concurrency.limit;
  }
  if (args.ownerCap !== undefined && args.ownerCap > 0) request.ownerCap = args.ownerCap;
  if (request.group === undefined && request.ownerCap === undefined) return undefined;
  return new RunSlots(args.ownerId, request, onQueued);
}

/** The key rendered; a key past its render budget fails the run with the renderer's code. */
function renderKey(key: InputTemplate, scope: RunScope): unknown {
  try {
    return resolveInput(key, scope);
  } catch (err) {
    const { code, message } = stepError(err);
    throw ApplicationFailure.nonRetryable(message, code);
  }
}

/** A rendered key as text: strings as they are, other values as JSON; too long fails the run. */
function keyOf(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value ?? null) ?? 'null');
  if (text.length > MAX_CONCURRENCY_KEY_CHARS)
    throw ApplicationFailure.nonRetryable(
      `The rendered concurrency key is longer than ${MAX_CONCURRENCY_KEY_CHARS} characters.`,
      'INVALID_CONCURRENCY_KEY',
    );
  return text;
}
