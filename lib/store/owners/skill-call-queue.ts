/**
 * The owner of `skill_call_queue`: authenticated skill calls that wait for a limit to reset
 * (on the authenticated route tasks are queued and retried on reset instead of
 * rejected). The queue is bounded per API key; past the depth the caller gets 429 with
 * Retry-After (the time until the earliest queued call of that key starts). Rows hold ids and
 * times only.
 */
import { sql } from 'kysely';
import { errors } from '../../errors/errors.js';
import type { Store } from '../db.js';

export interface QueuedCall {
  taskId: string;
  keyId: string;
  ownerId: string;
  runAt: Date;
}

export class CallQueue {
  constructor(
    private readonly store: Store,
    /** QUEUE_MAX_PER_KEY: calls one API key may have waiting at once. */
    private readonly maxPerKey: number,
  ) {}

  /**
   * Adds a call to its key's queue, or throws RATE_LIMITED (429, Retry-After) when the key
   * already has `maxPerKey` calls waiting (`0`: queueing is off). Serialised per key, so
   * replicas cannot overshoot.
   */
  async enqueue(call: QueuedCall, now: Date = new Date()): Promise<void> {
    await this.store.db.transaction().execute(async (tx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${`skill_call_queue:${call.keyId}`}))`.execute(tx);
      await tx
        .deleteFrom('skill_call_queue')
        .where('key_id', '=', call.keyId)
        .where('run_at', '<=', now)
        .execute();
      const waiting = await tx
        .selectFrom('skill_call_queue')
        .select(['run_at', 'task_id'])
        .where('key_id', '=', call.keyId)
        .orderBy('run_at', 'asc')
        .execute();
      // A retried start of the same call keeps its first place.
      if (waiting.some((w) => w.task_id === call.taskId)) return;
      if (waiting.length >= this.maxPerKey) {
        // The earliest queued call frees a place; with no queue at all, this call's own start.
        const first = waiting[0] ? new Date(waiting[0].run_at).getTime() : call.runAt.getTime();
        throw errors.rateLimited({
          rule: `This API key already has ${this.maxPerKey} calls queued`,
          details: { queue_depth: waiting.length, max_queue_depth: this.maxPerKey },
          retryAfterMs: first - now.getTime(),
        });
      }
      await tx
        .insertInto('skill_call_queue')
        .values({ task_id: call.taskId, key_id: call.keyId, owner_id: call.ownerId, run_at: call.runAt })
        .onConflict((oc) => oc.column('task_id').doNothing())
        .execute();
    });
  }
}
