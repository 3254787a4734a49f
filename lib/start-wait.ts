/**
 * A process that starts while a service it needs is restarting (PostgreSQL, the Temporal
 * server), or before that service accepts connections, waits for it instead of exiting: the
 * step is tried again while its error says the service could not be reached, with a back-off of
 * 250 ms doubling to 2 s, up to a bound. Any other error, or the bound passing, ends the wait.
 * Each step bounds a single try by the time left (`op` receives it), so the bound holds even
 * against a host that drops packets.
 */
export interface StartWait {
  /** The service, as the final error names it ("the platform store"). */
  service: string;
  /** How long to keep trying; 0 tries once. */
  waitMs: number;
  /** Whether an error says the service could not be reached (worth another try). */
  unreachable: (err: unknown) => boolean;
  /** Told before each new try, with the error that made it necessary. */
  onWaiting?: ((err: Error, retryInMs: number) => void) | undefined;
  /** A short reason for the final error, never a driver's message; default {@link errorCode}. */
  reason?: (err: unknown) => string;
}

/** How long each start step of a process waits for the service it needs. */
export const START_WAIT_MS = 60_000;

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 2_000;

/** The code of an error (SQLSTATE, socket code, error name) or of the error it wraps; never its message. */
export function errorCode(err: unknown): string {
  const own = (err as { code?: unknown } | undefined)?.code;
  if (typeof own === 'string' || typeof own === 'number') return String(own);
  const cause = (err as { cause?: unknown } | undefined)?.cause;
  const inner = (cause as { code?: unknown } | undefined)?.code;
  if (typeof inner === 'string' || typeof inner === 'number') return String(inner);
  return err instanceof Error ? err.name : 'unknown';
}

/** Runs `op` (given the time left, to bound one try) until it succeeds or `wait` ends. */
export async function untilReachable<T>(op: (leftMs: number) => Promise<T>, wait: StartWait): Promise<T> {
  const deadline = Date.now() + wait.waitMs;
  let delay = FIRST_DELAY_MS;
  for (;;) {
    try {
      return await op(Math.max(deadline - Date.now(), 0));
    } catch (err) {
      const unreachable = wait.unreachable(err) || wait.unreachable((err as { cause?: unknown })?.cause);
      const left = deadline - Date.now();
      if (!unreachable || wait.waitMs <= 0) throw err;
      if (left <= 0) {
        // The code only: a driver's message may name hosts or users; it stays in `cause`.
        throw new Error(
          `${wait.service} could not be reached within ${Math.round(wait.waitMs / 1000)} s (${(wait.reason ?? errorCode)(err)})`,
          { cause: err },
        );
      }
      const pause = Math.min(delay, left);
      wait.onWaiting?.(err as Error, pause);
      await new Promise((resolve) => setTimeout(resolve, pause));
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
}
