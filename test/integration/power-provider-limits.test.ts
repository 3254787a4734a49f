/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * A long-running skill that sends several upstream requests under our own provider limit
 * (PROVIDER_RATE_LIMITS), through the API, a real Temporal test server and worker, against the
 * power simulator over HTTP: a power design search (one search, then one schematic) on a limit
 * of one request per window waits for the window's reset and completes, billed once; when the
 * reset would come after the attempt's deadline the call fails with UPSTREAM_RATE_LIMITED and
 * is not billed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS } from '../../activities/apps/index.js';
import { startPowerSimulator, type PowerSimulator } from '../../simulators/power/server.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

const SEARCH = '/v1/apps/electronics/skills/search_power_designs';
const REQ = { vinMin: 10, vinMax: 24, vout: [5], iout: [2], max_results: 2 };

/** The simulator's requests, solution ids left out. */
const upstreamCalls = (sim: PowerSimulator) =>
  sim.requests().map((r) => [r.method, r.path.replace(/\/solutions\/[^/]+\//u, '/solutions/{id}/')]);

/** An engine serving the power app with `rule` as the only power limit (no per-owner share). */
function withPowerLimit(rule: string) {
  const ctx = {} as { h: EngineHarness; sim: PowerSimulator };
  beforeAll(async () => {
    ctx.sim = await startPowerSimulator({ latencyMs: 5 });
    ctx.h = await startEngine({
      apps: APPS,
      config: {
        POWER_URL: ctx.sim.url,
        POWER_PRODUCT_ORIGIN: 'https://products.example',
        PROVIDER_RATE_LIMITS: rule,
        OWNER_PROVIDER_SHARE_PERCENT: 100,
      },
    });
  }, 60_000);
  afterAll(async () => {
    await ctx.h?.close();
    await ctx.sim?.close();
  });
  return ctx;
}

/** The usage records of one task (GET /v1/usage), with the fields billing reads. */
async function usageOf(h: EngineHarness, taskId: string) {
  const res = await h.request('GET', '/v1/usage');
  expect(res.status).toBe(200);
  return (res.json.records as any[])
    .filter((r) => r.task_id === taskId)
    .map(({ skill, credits, request_items, queued }) => ({ skill, credits, request_items, queued }));
}

describe('a long-running skill under a provider limit it outruns', () => {
  const ctx = withPowerLimit('power=1/3');

  it('waits for the reset between its requests and completes, billed once', async () => {
    const { h, sim } = ctx;
    const started = Date.now();
    const res = await h.request('POST', SEARCH, { requests: [REQ] });
    expect(res.status).toBe(202);
    const done = await h.waitForTask(
      res.json.task_id,
      (t) => t.status !== 'running' && t.status !== 'queued',
    );
    expect(done.status).toBe('completed');
    // The schematic waited for the 3 s window that the search opened.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    const out = done.result.output;
    expect(out.results[0].solutions.map((s: any) => s.rank)).toEqual([1, 2]);
    expect(out.top_schematic).toMatchObject({
      solution_id: out.results[0].solutions[0].id,
      content_type: 'image/svg+xml',
    });
    expect(upstreamCalls(sim)).toEqual([
      ['POST', '/wb6/restapi/power/solutions'],
      ['GET', '/wb6/restapi/power/solutions/{id}/schsvg'],
    ]);
    expect(await usageOf(h, res.json.task_id)).toEqual([
      { skill: 'electronics.search_power_designs', credits: 1, request_items: 1, queued: false },
    ]);
  }, 60_000);
});

describe('a long-running skill whose wait for the limit would pass its deadline', () => {
  // A one-hour window: the reset comes after the 15-minute attempt of the long-running policy.
  const ctx = withPowerLimit('power=1/3600');

  it('fails with UPSTREAM_RATE_LIMITED at once and is not billed', async () => {
    const { h, sim } = ctx;
    const res = await h.request('POST', SEARCH, { requests: [REQ] });
    expect(res.status).toBe(202);
    const failed = await h.waitForTask(res.json.task_id, (t) => t.status === 'failed');
    expect(failed.error).toEqual({
      code: 'UPSTREAM_RATE_LIMITED',
      message: 'The power provider limit for electronics.search_power_designs is reached; retry in 3600 s.',
      details: {
        provider: 'power',
        skill: 'electronics.search_power_designs',
        model: null,
        retry_after_seconds: 3600,
      },
    });
    // The search was sent; the schematic was not.
    expect(upstreamCalls(sim)).toEqual([['POST', '/wb6/restapi/power/solutions']]);
    expect(await usageOf(h, res.json.task_id)).toEqual([]);
  }, 60_000);
});
