/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * Relevance ranking through the real API with the decision simulator over HTTP: `design.search_icons`
 * (offline icon sets) ranks with one decision request, and the call's usage record carries that
 * request's estimated input tokens and cost (0.042 USD per million); a decision outage keeps
 * provider order, reports `failed` and records no decision usage.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decisionCostUsd, estimateTokens } from '../../activities/decision/bounds.js';
import { staticSecrets } from '../../lib/secrets.js';
import { startDecisionSimulator, type DecisionSimulator } from '../../simulators/decision/server.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { APPS } from '../../activities/apps/index.js';

const KEY = 'dk-live-relevance-usage-51';
let sim: DecisionSimulator;
let h: EngineHarness;

const search = (criteria: string) =>
  h.request('POST', '/v1/apps/design/skills/search_icons', {
    requests: [{ query: 'home', limit: 5, relevance_criteria: criteria }],
  });
const usageOf = async (callId: string) =>
  (await h.request('GET', '/v1/usage')).json.records.find((r: any) => r.task_id === callId);

beforeAll(async () => {
  sim = await startDecisionSimulator({ apiKey: KEY });
  h = await startEngine({
    worker: false,
    apps: APPS,
    config: { ICON_URL: undefined, DECISION_URL: sim.url },
    secrets: staticSecrets({ decision_api_key: KEY }),
  });
});
afterAll(async () => {
  await h?.close();
  await sim?.close();
});
beforeEach(() => sim.reset());

describe('relevance in the icon search skill, with its usage recorded', () => {
  it("ranks with one decision and records the request's tokens and cost on the call", async () => {
    const res = await search('home plus');
    expect(res.status).toBe(200);
    const result = res.json.results[0];
    expect(result.relevance_applied.status).toBe('applied');
    expect(sim.requests()).toHaveLength(1);
    const tokens = estimateTokens(JSON.stringify(sim.requests()[0]!.body));
    expect((await usageOf(res.json.call_id)).decision).toEqual({
      input_tokens: tokens,
      cost_usd: decisionCostUsd(tokens),
    });
    // Only public result text travels, labelled untrusted; no key or owner.
    const body = JSON.stringify(sim.requests()[0]!.body);
    expect(body).not.toContain(KEY);
    expect(body).not.toContain('owner_a');
  });

  it('an outage keeps provider order with relevance failed, and records no decision usage', async () => {
    const plain = await search('   ');
    sim.setFault({ type: 'status', status: 503 });
    const failed = await search('home plus');
    expect(failed.json.results[0].relevance_applied).toEqual({ status: 'failed', evaluated: 0, removed: 0 });
    expect(failed.json.results[0].results.length).toBeGreaterThan(1);
    expect(failed.json.results[0].results.map((i: any) => i.id)).toEqual(
      plain.json.results[0].results.map((i: any) => i.id),
    );
    expect((await usageOf(failed.json.call_id)).decision).toEqual({ input_tokens: 0, cost_usd: 0 });
  });
});
