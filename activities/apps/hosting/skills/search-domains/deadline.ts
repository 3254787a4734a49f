/**
 * The group deadline (fallback included; its length comes from the skill's
 * policy profile in activities/policy.ts) as an AbortSignal, plus an abortable sleep for
 * Retry-After waits and backoffs. Work that completed before the deadline is kept by the
 * caller; the signal only cuts what is still running.
 */

/** The abort reason when a group's deadline passes (distinct from a caller's cancellation). */
export class GroupDeadlineError extends Error {
  constructor(readonly deadlineMs: number) {
    super(`The group deadline of ${deadlineMs} ms passed.`);
    this.name = 'GroupDeadlineError';
  }
}

/** A running deadline. Call {@link Deadline.dispose} when the group is done. */
export interface Deadline {
  /** Aborts when the deadline passes or the parent signal aborts (with the parent's reason). */
  readonly signal: AbortSignal;
  /** Milliseconds left (0 once passed or aborted). */
  remainingMs(): number;
  /** True when the deadline itself (not the parent) aborted the signal. */
  readonly expired: boolean;
  dispose(): void;
}

/**
 * Starts a deadline of `ms` milliseconds, linked to `parent` (activity cancellation).
 * `now` is a wall-clock in ms, injectable for tests.
 */
export function startDeadline(ms: number, parent?: AbortSignal, now: () => number = Date.now): Deadline {
  const controller = new AbortController();
  const endsAt = now() + ms;
  const timer = setTimeout(() => controller.abort(new GroupDeadlineError(ms)), ms);
  const onParentAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    remainingMs: () => (controller.signal.aborted ? 0 : Math.max(0, endsAt - now())),
    get expired() {
      return controller.signal.reason instanceof GroupDeadlineError;
    },
    dispose() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
