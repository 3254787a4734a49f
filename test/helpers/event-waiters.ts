/**
 * Many runs waiting for events, for the tests and the benchmark that need a crowd of them: a
 * definition whose one step waits for an event matched on the run's `order_id` input, and a
 * starter of its runs a bounded number at a time.
 */
import type { EngineHarness } from './engine.js';

/**
 * A manual definition with a required `order_id` input and one step `paid` that waits up to an
 * hour for `event` whose data has that `order_id`.
 */
export function orderWaiter(title: string, event: string): string {
  return `title: ${title}
start_when:
  manual:
    inputs:
      order_id: { type: string, required: true }
steps:
  - id: paid
    wait_for_event: { name: ${event}, match: { order_id: '{{inputs.order_id}}' }, timeout: 1h }
`;
}

/** Runs `fn(i)` for every i in [0, n), `concurrency` at a time. */
export async function inPool(
  n: number,
  concurrency: number,
  fn: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) await fn(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
}

/**
 * Starts `n` runs of the definition, run i with `order_id` `<prefix>-<i>`, `concurrency` at a
 * time; answers their task ids in that order. Throws with the answer's body when a start is
 * not 202.
 */
export async function startOrderRuns(
  h: EngineHarness,
  definitionId: string,
  opts: { n: number; prefix: string; concurrency: number },
): Promise<string[]> {
  const ids: string[] = new Array(opts.n);
  await inPool(opts.n, opts.concurrency, async (i) => {
    const res = await h.request('POST', `/v1/workflows/${definitionId}/runs`, {
      inputs: { order_id: `${opts.prefix}-${i}` },
    });
    if (res.status !== 202) throw new Error(`run ${i} did not start: ${res.status} ${res.body}`);
    ids[i] = res.json.task_id;
  });
  return ids;
}
