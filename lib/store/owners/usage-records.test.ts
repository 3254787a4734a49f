/**
 * Deferred usage records: written in one batch within USAGE_FLUSH_MS, stamped with the time of
 * the call, visible to every read of this process at once, kept after a failed write, and
 * written on close.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeEngines, useEngineStore } from '../../../test/helpers/store-engines.js';
import { openStore, type Store } from '../db.js';
import { USAGE_FLUSH_MS, UsageRecords, type NewUsage } from './usage-records.js';

const usage = (taskId: string, ownerId = 'owner_u'): NewUsage => ({
  taskId,
  ownerId,
  keyId: 'k_u',
  payer: { type: 'owner', id: ownerId },
  skill: 'echo.shout',
  requestItems: 2,
  credits: 2,
  queued: false,
});

describe.each(storeEngines())('UsageRecords.defer on $name', (engine) => {
  const current = useEngineStore(engine);
  const stored = async (ownerId: string) =>
    (
      await current()
        .db.selectFrom('usage_records')
        .select(['task_id', 'created_at'])
        .where('owner_id', '=', ownerId)
        .orderBy('task_id')
        .execute()
    ).map((r) => r.task_id);

  it('writes a batch within the flush interval, stamped with the time of the call', async () => {
    const records = new UsageRecords(current());
    const before = Date.now();
    await records.defer(usage('call_1', 'owner_t'));
    await records.defer(usage('call_2', 'owner_t'));
    expect(await stored('owner_t')).toEqual([]);
    await new Promise((r) => setTimeout(r, USAGE_FLUSH_MS + 100));
    expect(await stored('owner_t')).toEqual(['call_1', 'call_2']);
    const row = await current()
      .db.selectFrom('usage_records')
      .select('created_at')
      .where('task_id', '=', 'call_1')
      .executeTakeFirstOrThrow();
    expect(new Date(row.created_at).getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(new Date(row.created_at).getTime()).toBeLessThan(before + USAGE_FLUSH_MS);
  });

  it('writes every column of a batch as given (a team payer, decision usage, a queued call)', async () => {
    const records = new UsageRecords(current());
    const at = Date.now();
    await records.defer({
      ...usage('call_cols', 'owner_c'),
      payer: { type: 'team', id: 'team_c' },
      credits: 3,
      requestItems: 3,
      queued: true,
      decision: { input_tokens: 1234, cost_usd: 0.000987654 },
    });
    await records.defer(usage('call_plain', 'owner_c'));
    await records.flush();
    const [row] = await current()
      .db.selectFrom('usage_records')
      .selectAll()
      .where('task_id', '=', 'call_cols')
      .execute();
    expect(row).toBeDefined();
    const { created_at, ...rest } = row!;
    expect(rest).toEqual({
      id: expect.stringMatching(/^use_[0-9a-f]{20}$/),
      task_id: 'call_cols',
      owner_id: 'owner_c',
      key_id: 'k_u',
      team_id: 'team_c',
      billed_to: 'team:team_c',
      skill: 'echo.shout',
      request_items: 3,
      credits: '3',
      queued: true,
      decision_input_tokens: 1234,
      decision_cost_usd: '0.000987654',
    });
    expect(Math.abs(new Date(created_at).getTime() - at)).toBeLessThan(1000);
    expect(await records.forTask('call_plain', 'owner_c')).toMatchObject({
      billed_to: { type: 'owner', id: 'owner_c' },
      queued: false,
      decision: { input_tokens: 0, cost_usd: 0 },
    });
  });

  it('reads of this process see deferred records at once; close writes what is left', async () => {
    const records = new UsageRecords(current());
    await records.defer(usage('call_r', 'owner_r'));
    expect((await records.forTask('call_r', 'owner_r'))?.credits).toBe(2);
    await records.defer(usage('call_s', 'owner_r'));
    const listed = await records.list({ type: 'owner', id: 'owner_r' }, { limit: 10 });
    expect(listed.map((r) => r.task_id).sort()).toEqual(['call_r', 'call_s']);
    await records.defer(usage('call_t', 'owner_r'));
    await records.close();
    expect(await stored('owner_r')).toEqual(['call_r', 'call_s', 'call_t']);
  });

  it('writes the rows it can when a batch fails, and keeps the refused one for the next flush', async () => {
    const records = new UsageRecords(current());
    await records.defer({ ...usage('call_bad', 'owner_f'), requestItems: Number.NaN });
    await records.defer(usage('call_ok', 'owner_f'));
    await expect(records.flush()).rejects.toThrow();
    expect(await stored('owner_f')).toEqual(['call_ok']);
    await expect(records.flush()).rejects.toThrow();
    expect(await stored('owner_f')).toEqual(['call_ok']);
  });
});

describe('UsageRecords.defer at its bound', () => {
  it('writes at once when the bound is reached, and fails the caller when the store refuses', async () => {
    const store = await openStore({ pgliteDir: 'memory://' });
    const records = new UsageRecords(store, () => undefined, 3);
    await records.defer(usage('call_b1', 'owner_b'));
    await records.defer(usage('call_b2', 'owner_b'));
    await records.defer(usage('call_b3', 'owner_b'));
    const written = await store.db
      .selectFrom('usage_records')
      .select('task_id')
      .where('owner_id', '=', 'owner_b')
      .orderBy('task_id')
      .execute();
    expect(written.map((r) => r.task_id)).toEqual(['call_b1', 'call_b2', 'call_b3']);
    await records.defer({ ...usage('call_x1', 'owner_b'), requestItems: Number.NaN });
    await records.defer({ ...usage('call_x2', 'owner_b'), requestItems: Number.NaN });
    await expect(
      records.defer({ ...usage('call_x3', 'owner_b'), requestItems: Number.NaN }),
    ).rejects.toThrow();
    await store.close();
  });
});

describe('UsageRecords.setDecisionUsage', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ pgliteDir: 'memory://' });
  });
  afterAll(async () => {
    await store.close();
  });

  it("sets a task record's decision usage (a second attempt replaces it) and leaves decide-step records alone", async () => {
    const records = new UsageRecords(store);
    expect(await records.setDecisionUsage('task_late', { input_tokens: 5, cost_usd: 2.1e-7 })).toBe(false);
    await records.record({ ...usage('task_d', 'owner_d'), queued: true });
    await records.recordDecision({ taskId: 'task_d', ownerId: 'owner_d', inputTokens: 7, costUsd: 2.94e-7 });
    expect(await records.setDecisionUsage('task_d', { input_tokens: 100, cost_usd: 0.0000042 })).toBe(true);
    expect(await records.setDecisionUsage('task_d', { input_tokens: 120, cost_usd: 0.00000504 })).toBe(true);
    const listed = await records.list({ type: 'owner', id: 'owner_d' }, { limit: 10 });
    expect(listed.map((r) => [r.skill, r.decision]).sort()).toEqual([
      ['echo.shout', { input_tokens: 120, cost_usd: 0.00000504 }],
      ['workflow.decide', { input_tokens: 7, cost_usd: 2.94e-7 }],
    ]);
  });

  it('bills a decide request once when its step is retried, and two requests twice', async () => {
    const records = new UsageRecords(store);
    const decide = (requestKey: string, inputTokens: number) =>
      records.recordDecision({
        taskId: 'task_r',
        ownerId: 'owner_r',
        inputTokens,
        costUsd: inputTokens * 1e-8,
        requestKey,
      });
    await decide('3:0', 10); // first attempt of activity 3, its first request
    await decide('3:1', 20); // its second request
    await decide('3:0', 11); // a retried attempt asks its first request again
    const listed = await records.list({ type: 'owner', id: 'owner_r' }, { limit: 10 });
    expect(listed.map((r) => r.decision).sort((a, b) => a.input_tokens - b.input_tokens)).toEqual([
      { input_tokens: 11, cost_usd: 1.1e-7 },
      { input_tokens: 20, cost_usd: 2e-7 },
    ]);
  });
});

describe('UsageRecords.dropTaskRecord', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ pgliteDir: 'memory://' });
  });
  afterAll(async () => {
    await store.close();
  });

  it("removes a refused task's record, not its decide-step records nor other tasks' records", async () => {
    const records = new UsageRecords(store);
    expect(await records.dropTaskRecord('task_late')).toBe(false);
    await records.record(usage('task_r', 'owner_r'));
    await records.record(usage('task_kept', 'owner_r'));
    await records.recordDecision({ taskId: 'task_r', ownerId: 'owner_r', inputTokens: 7, costUsd: 2.94e-7 });
    expect(await records.dropTaskRecord('task_r')).toBe(true);
    expect(await records.dropTaskRecord('task_r')).toBe(false);
    const listed = await records.list({ type: 'owner', id: 'owner_r' }, { limit: 10 });
    expect(listed.map((r) => [r.task_id, r.skill]).sort()).toEqual([
      ['task_kept', 'echo.shout'],
      ['task_r', 'workflow.decide'],
    ]);
  });
});
