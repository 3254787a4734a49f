/**
 * Errors cross into Temporal once, here: as ApplicationFailure with the catalogue code as type,
 * `nonRetryable` from the catalogue (or forced by `final`), client-safe details, and
 * `nextRetryDelay` from a 429's Retry-After. A platform store that could not be reached (it
 * restarts, its connection dropped) is SERVICE_UNAVAILABLE and always retried, so a run outlives
 * a store restart. Anything else unrecognised becomes INTERNAL with no internals in the message.
 */
import { ApplicationFailure } from '@temporalio/common';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import { isStoreUnreachable } from '../../lib/store/unreachable.js';

/** The message of a retried store outage (no driver text: it may name hosts or statements). */
export const STORE_UNREACHABLE = 'The platform store is unreachable; the step is retried.';

/**
 * `final: true` marks the outcome as the answer of the call: Temporal must not re-run the
 * activity for it, whatever the catalogue says. A skill's upstream outcomes are final (the
 * one lazy proxy attempt and the per-domain retries happen inside the call; a
 * Temporal retry would repeat them). Only losing the worker (a heartbeat or start-to-close
 * timeout, raised by Temporal itself) is retried.
 */
export function toApplicationFailure(err: unknown, opts: { final?: boolean } = {}): ApplicationFailure {
  if (err instanceof ApplicationFailure) return err;
  if (isStoreUnreachable(err))
    return ApplicationFailure.create({
      type: 'SERVICE_UNAVAILABLE',
      message: STORE_UNREACHABLE,
      nonRetryable: false,
      details: [{}],
    });
  const e = err instanceof SkillflowError ? err : new SkillflowError('INTERNAL');
  return ApplicationFailure.create({
    type: e.code,
    message: e.message,
    nonRetryable: opts.final === true || !e.retryable,
    details: [e.details],
    ...(e.retryAfterMs !== undefined ? { nextRetryDelay: e.retryAfterMs } : {}),
  });
}
