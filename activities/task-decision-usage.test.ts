/**
 * The worker's write of a task's decision usage: only for the skill-call workflow and a non-zero
 * figure, set (not added) on the acceptance record, retried briefly while that record is missing,
 * then warned about without failing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../lib/store/db.js';
import { UsageRecords } from '../lib/store/owners/usage-records.js';
import { recordTaskDecisionUsage, RECORD_RETRY_MS, RECORD_TRIES } from './task-decision-usage.js';

describe('recordTaskDecisionUsage', () => {
  let store: Store;
  let usage: UsageRecords;
  const warnings: [string, Record<string, unknown>][] = [];
  const target = () => ({
    usage,
    warn: (m: string, f: Record<string, unknown>) => void warnings.push([m, f]),
  });
  const spent = { input_tokens: 1000, cost_usd: 0.000042 };
  beforeAll(async () => {
    store = await openStore({ pgliteDir: 'memory://' });
    usage = new UsageRecords(store);
    await usage.record({
      taskId: 'task_w',
      ownerId: 'owner_w',
      keyId: 'k_w',
      payer: { type: 'owner', id: 'owner_w' },
      skill: 'electronics.search_power_designs',
      requestItems: 1,
      credits: 1,
      queued: false,
    });
  });
  afterAll(async () => {
    await store.close();
  });
  const decisionOf = async () => (await usage.forTask('task_w', 'owner_w'))?.decision;

  it('writes nothing for a workflow step or a call that spent nothing', async () => {
    await recordTaskDecisionUsage(target(), { workflowType: 'runDefinition', taskId: 'task_w' }, spent);
    await recordTaskDecisionUsage(
      target(),
      { workflowType: 'runSkillCall', taskId: 'task_w' },
      { input_tokens: 0, cost_usd: 0 },
    );
    expect(await decisionOf()).toEqual({ input_tokens: 0, cost_usd: 0 });
  });

  it("sets the attempt's usage on the task's record; a retried attempt replaces it", async () => {
    await recordTaskDecisionUsage(target(), { workflowType: 'runSkillCall', taskId: 'task_w' }, spent);
    await recordTaskDecisionUsage(target(), { workflowType: 'runSkillCall', taskId: 'task_w' }, spent);
    expect(await decisionOf()).toEqual(spent);
    expect(warnings).toEqual([]);
  });

  it('retries briefly while the record is missing, then warns without throwing', async () => {
    const started = Date.now();
    await recordTaskDecisionUsage(target(), { workflowType: 'runSkillCall', taskId: 'task_none' }, spent);
    expect(Date.now() - started).toBeGreaterThanOrEqual(RECORD_TRIES * RECORD_RETRY_MS - 20);
    expect(warnings).toEqual([
      ['usage record of the task not found; its decision usage is not recorded', { task_id: 'task_none' }],
    ]);
  });
});
