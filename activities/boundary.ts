/**
 * Errors cross into Temporal once, here: as ApplicationFailure with the catalogue code as type,
 * `nonRetryable` from the catalogue, client-safe details, and `nextRetryDelay` from a 429's
 * Retry-After. Anything unrecognised becomes INTERNAL with no internals in the message.
 */
import { ApplicationFailure } from '@temporalio/common';
import { SkillflowError } from '../lib/errors/skillflow-error.js';

export function toApplicationFailure(err: unknown): ApplicationFailure {
  if (err instanceof ApplicationFailure) return err;
  const e = err instanceof SkillflowError ? err : new SkillflowError('INTERNAL');
  return ApplicationFailure.create({
    type: e.code,
    message: e.message,
    nonRetryable: !e.retryable,
    details: [e.details],
    ...(e.retryAfterMs !== undefined ? { nextRetryDelay: e.retryAfterMs } : {}),
  });
}
