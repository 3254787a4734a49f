/**
 * A process that starts while a service it needs is restarting (PostgreSQL, the Temporal
 * server), or before that service accepts connections, waits for it instead of exiting: the
 * step is tried again while its error says the service could not be reached, with a back-off of
 * 250 ms doubling to 2 s, up to a bound. Any other error, or the bound passing, ends the wait.
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
}

/** How long a process that starts waits for each service it needs. */
export const START_WAIT_MS = 60_000;

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 2_000;

/** Runs `op` (given the time left, to bound a connect attempt) until it succeeds or `wait` ends. */
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
        throw new Error(
          `${wait.service} could not be reached within ${Math.round(wait.waitMs / 1000)} s: ${(err as Error).message}`,
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
