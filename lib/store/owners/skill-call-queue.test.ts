/**
 * The per-key queue of limited skill calls on both store engines: concurrent enqueues for one
 * key never overshoot the depth (the advisory lock serialises them on PostgreSQL, where
 * transactions really run in parallel), past calls free their place, and 0 turns queueing off.
 */
import { describe, expect, it } from 'vitest';
import { storeEngines, useEngineStore } from '../../../test/helpers/store-engines.js';
import { CallQueue } from './skill-call-queue.js';

describe.each(storeEngines())('skill call queue on $name', (engine) => {
  const current = useEngineStore(engine);
  const now = new Date('2026-11-23T12:00:00.000Z');
  const at = (s: number) => new Date(now.getTime() + s * 1000);
  /** The task ids of the key's rows, in start order. */
  const rows = async (keyId: string) =>
    (
      await current()
        .db.selectFrom('skill_call_queue')
        .select('task_id')
        .where('key_id', '=', keyId)
        .orderBy('run_at')
        .execute()
    ).map((r) => r.task_id);

  it('holds at most the depth per key, concurrently; other keys are independent', async () => {
    const queue = new CallQueue(current(), 3);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        queue.enqueue({ taskId: `task_c${i}`, keyId: 'k_a', ownerId: 'o', runAt: at(30 + i) }, now),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected).toHaveLength(7);
    const first = (
      await current()
        .db.selectFrom('skill_call_queue')
        .select('run_at')
        .orderBy('run_at')
        .executeTakeFirstOrThrow()
    ).run_at;
    const seconds = Math.ceil((new Date(first).getTime() - now.getTime()) / 1000);
    for (const r of rejected) {
      expect(r.reason).toMatchObject({
        code: 'RATE_LIMITED',
        message: `This API key already has 3 calls queued; retry in ${seconds} s.`,
        details: { queue_depth: 3, max_queue_depth: 3, retry_after_seconds: seconds },
        retryAfterMs: seconds * 1000,
      });
    }
    expect(await rows('k_a')).toHaveLength(3);
    await queue.enqueue({ taskId: 'task_other', keyId: 'k_b', ownerId: 'o', runAt: at(30) }, now);
    expect(await rows('k_b')).toEqual(['task_other']);
  });

  it('frees the places of calls whose start time has passed', async () => {
    const queue = new CallQueue(current(), 1);
    await queue.enqueue({ taskId: 'task_p1', keyId: 'k_p', ownerId: 'o', runAt: at(5) }, now);
    await expect(
      queue.enqueue({ taskId: 'task_p2', keyId: 'k_p', ownerId: 'o', runAt: at(6) }, now),
    ).rejects.toMatchObject({ code: 'RATE_LIMITED', details: { retry_after_seconds: 5 } });
    await queue.enqueue({ taskId: 'task_p3', keyId: 'k_p', ownerId: 'o', runAt: at(20) }, at(6));
    expect(await rows('k_p')).toEqual(['task_p3']);
  });

  it('with a depth of 0 nothing is queued: the call gets its own start time as Retry-After', async () => {
    const queue = new CallQueue(current(), 0);
    await expect(
      queue.enqueue({ taskId: 'task_z', keyId: 'k_z', ownerId: 'o', runAt: at(42) }, now),
    ).rejects.toMatchObject({ code: 'RATE_LIMITED', details: { queue_depth: 0, retry_after_seconds: 42 } });
  });
});
