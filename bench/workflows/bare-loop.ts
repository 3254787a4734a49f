/**
 * The hand-written baseline of the loop benchmark: the same fan-out as a `for_each`, written as
 * plain Temporal code with nothing of ours around it (no plan, scope, templates, progress or
 * output budget). The same rule: up to 100 items run as activities in this workflow, at most
 * `concurrency` at a time; more run in child workflows of at most 100 items (the fewest
 * batches, of equal size), in at most two lanes that split the concurrency.
 */
import { executeChild, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { ActivityPolicy } from '../../activities/policy.js';

export interface BareLoopInput {
  queries: string[];
  concurrency: number;
  policy: ActivityPolicy;
  ownerId: string;
}

const BATCH = 100;

async function inline(args: BareLoopInput): Promise<number[]> {
  const acts = proxyActivities<
    Record<
      string,
      (req: { input: unknown; view: 'workflow'; ownerId: string }) => Promise<{ result_count: number }>
    >
  >({
    startToCloseTimeout: args.policy.startToCloseTimeout,
    scheduleToCloseTimeout: args.policy.scheduleToCloseTimeout,
    retry: args.policy.retry,
  });
  const counts: number[] = new Array<number>(args.queries.length).fill(0);
  let next = 0;
  const worker = async () => {
    while (next < args.queries.length) {
      const i = next++;
      const out = await acts['hosting.search_domains']!({
        input: { requests: [{ query: args.queries[i] }] },
        view: 'workflow',
        ownerId: args.ownerId,
      });
      counts[i] = out.result_count;
    }
  };
  await Promise.all(Array.from({ length: Math.min(args.concurrency, args.queries.length) }, worker));
  return counts;
}

export async function bareLoopBatch(args: BareLoopInput): Promise<number[]> {
  return inline(args);
}

export async function bareLoop(args: BareLoopInput): Promise<number> {
  if (args.queries.length <= BATCH) return (await inline(args)).length;
  const batches = Math.ceil(args.queries.length / BATCH);
  const size = Math.ceil(args.queries.length / batches);
  const lanes = Math.min(2, args.concurrency, batches);
  let next = 0;
  let done = 0;
  const lane = async (index: number) => {
    const concurrency = Math.floor(args.concurrency / lanes) + (index < args.concurrency % lanes ? 1 : 0);
    while (next < batches) {
      const b = next++;
      const counts = await executeChild(bareLoopBatch, {
        workflowId: `${workflowInfo().workflowId}.${b + 1}`,
        args: [{ ...args, queries: args.queries.slice(b * size, (b + 1) * size), concurrency }],
      });
      done += counts.length;
    }
  };
  await Promise.all(Array.from({ length: lanes }, (_, i) => lane(i)));
  return done;
}
