/**
 * SIGINT, SIGTERM and SIGHUP for a process that stops what it started. The first signal starts
 * the orderly stop. One Ctrl-C in a terminal reaches the whole process group, and `npm start`'s
 * wrapper forwards it as well, so the same press can arrive twice: a signal within
 * {@link REPEAT_WINDOW_MS} of the first is that same press and is ignored. A later one is a
 * second Ctrl-C: `force` runs (synchronous: stop children without waiting) and the process
 * exits with 130.
 */
export const REPEAT_WINDOW_MS = 2_000;

export function onStopSignals(
  stop: (signal: NodeJS.Signals) => void,
  force: () => void = () => undefined,
): void {
  let firstAt: number | undefined;
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(sig, () => {
      if (firstAt === undefined) {
        firstAt = Date.now();
        stop(sig);
        return;
      }
      if (Date.now() - firstAt < REPEAT_WINDOW_MS) return;
      force();
      process.exit(130);
    });
  }
}
