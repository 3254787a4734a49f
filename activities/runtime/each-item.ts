/**
 * A call's request items run concurrently (every skill takes 1 to 5), their results kept in
 * request order. Each item gets its own signal: when one item fails, the others are aborted so
 * nothing keeps sending for a call that has already failed, and once every item has settled the
 * first failure is the call's error. Provider limits still apply per upstream request (the
 * meter), so concurrency never passes them.
 */

/** Runs `run` for every item, at most `concurrency` at once (default: all), in request order. */
export async function eachItem<T, R>(
  items: readonly T[],
  run: (item: T, index: number, signal: AbortSignal) => Promise<R>,
  opts: { signal?: AbortSignal | undefined; concurrency?: number } = {},
): Promise<R[]> {
  const failed = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, failed.signal]) : failed.signal;
  const results = new Array<R>(items.length);
  let first: { error: unknown } | undefined;
  let next = 0;
  const worker = async () => {
    while (next < items.length && !signal.aborted) {
      const index = next++;
      try {
        results[index] = await run(items[index]!, index, signal);
      } catch (error) {
        if (!first) {
          first = { error };
          failed.abort(error);
        }
      }
    }
  };
  const lanes = Math.max(1, Math.min(opts.concurrency ?? items.length, items.length));
  await Promise.all(Array.from({ length: lanes }, worker));
  if (first) throw first.error;
  opts.signal?.throwIfAborted();
  return results;
}
