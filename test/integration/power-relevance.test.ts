/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * Relevance ranking of `electronics.search_power_designs` through the API, on a real Temporal
 * test server and worker, against the power and decision simulators over HTTP: applied
 * (reordered, dropped below 1, sliced to max_results), not requested (no decision request), and
 * a decision outage (provider order with RELEVANCE_FAILED). The call runs as a long-running task,
 * so its usage record is written at acceptance; the worker then records the decision tokens and
 * cost on it (0.042 USD per million input tokens).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decisionCostUsd, estimateTokens } from '../../activities/decision/bounds.js';
import { POWER_DESIGN_RUBRIC } from '../../activities/apps/electronics/index.js';
import { staticSecrets } from '../../lib/secrets.js';
import { startDecisionSimulator, type DecisionSimulator } from '../../simulators/decision/server.js';
import { startPowerSimulator, type PowerSimulator } from '../../simulators/power/server.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { APPS } from '../../activities/apps/index.js';

const SEARCH = '/v1/apps/electronics/skills/search_power_designs';
const KEY = 'dk-live-power-relevance-73';
// Four Buck designs (ranks 1-4) and one Flyback (rank 5) in the power simulator.
const REQ = { vinMin: 10, vinMax: 24, vout: [12], iout: [1] };
const BUCKS = ['LMR51430XDDCR', 'TPS62933DRLR', 'LM5164DDAR', 'LM5146QRGYRQ1'];

let power: PowerSimulator;
let decision: DecisionSimulator;
let h: EngineHarness;

beforeAll(async () => {
  power = await startPowerSimulator({ latencyMs: 5 });
  decision = await startDecisionSimulator({ apiKey: KEY });
  h = await startEngine({
    apps: APPS,
    config: {
      POWER_URL: power.url,
      POWER_PRODUCT_ORIGIN: 'https://products.example',
      DECISION_URL: decision.url,
    },
    secrets: staticSecrets({ decision_api_key: KEY }),
  });
}, 60_000);
afterAll(async () => {
  await h?.close();
  await decision?.close();
  await power?.close();
});
beforeEach(() => {
  power.reset();
  decision.reset();
});

/** Runs one search as a task; the completed task and the call's usage record. */
async function search(requests: unknown[]) {
  const res = await h.request('POST', SEARCH, { requests });
  expect(res.status).toBe(202);
  const task = await h.waitForTask(res.json.task_id, (t) => t.status === 'completed');
  const usage = (await h.request('GET', '/v1/usage')).json.records.find(
    (r: any) => r.task_id === res.json.task_id,
  );
  return { output: task.result.output, usage };
}
const parts = (result: any) => result.solutions.map((s: any) => s.part_number);

describe('electronics.search_power_designs relevance', () => {
  it('reorders, drops scores below 1 and slices back; the task records the decision tokens and cost', async () => {
    const { output, usage } = await search([
      { ...REQ, max_results: 2, relevance_criteria: 'flyback topology' },
    ]);
    const [result] = output.results;
    // Flyback scores 4, every Buck 2 ("topology" only): Flyback first, Bucks in provider order.
    expect(parts(result)).toEqual(['LM5180NGUR', BUCKS[0]]);
    expect(result.relevance_applied).toEqual({ status: 'applied', evaluated: 5, removed: 0 });
    expect(result.warnings).toEqual([]);
    expect(decision.requests()).toHaveLength(1);
    const body = decision.requests()[0]!.body as any;
    expect(JSON.stringify(body)).toContain(POWER_DESIGN_RUBRIC);
    expect(JSON.stringify(body)).toContain('topology Flyback; efficiency');
    expect(JSON.stringify(body)).not.toContain(KEY);
    expect(JSON.stringify(body)).not.toContain('owner_a');
    const tokens = estimateTokens(JSON.stringify(body));
    expect(tokens).toBeGreaterThan(0);
    expect(usage.decision).toEqual({ input_tokens: tokens, cost_usd: decisionCostUsd(tokens) });
    expect(usage.decision.cost_usd).toBe(Math.round(((tokens * 0.042) / 1e6) * 1e9) / 1e9);

    // Only the Flyback matches "flyback": the four Bucks score 0 and are removed.
    const dropped = await search([{ ...REQ, relevance_criteria: 'flyback' }]);
    expect(parts(dropped.output.results[0])).toEqual(['LM5180NGUR']);
    expect(dropped.output.results[0].relevance_applied).toEqual({
      status: 'applied',
      evaluated: 5,
      removed: 4,
    });
  }, 60_000);

  it('blank or absent criteria send no decision request and record no decision usage', async () => {
    const { output, usage } = await search([
      { ...REQ, relevance_criteria: '   ' },
      { ...REQ, max_results: 3 },
    ]);
    expect(parts(output.results[0])).toEqual([...BUCKS, 'LM5180NGUR']);
    expect(parts(output.results[1])).toEqual(BUCKS.slice(0, 3));
    for (const r of output.results) {
      expect(r.relevance_applied).toEqual({ status: 'not_requested', evaluated: 0, removed: 0 });
      expect(r.warnings).toEqual([]);
    }
    expect(decision.requests()).toEqual([]);
    expect(usage.decision).toEqual({ input_tokens: 0, cost_usd: 0 });
  }, 60_000);

  it('a decision outage keeps provider order with RELEVANCE_FAILED and records no decision usage', async () => {
    decision.setFault({ type: 'status', status: 503 });
    const { output, usage } = await search([{ ...REQ, max_results: 4, relevance_criteria: 'flyback' }]);
    expect(parts(output.results[0])).toEqual(BUCKS);
    expect(output.results[0].relevance_applied).toEqual({ status: 'failed', evaluated: 0, removed: 0 });
    expect(output.results[0].warnings).toEqual([
      {
        code: 'RELEVANCE_FAILED',
        message: 'The relevance ranking could not be applied; the provider order was kept.',
      },
    ]);
    expect(decision.requests()).toHaveLength(1);
    expect(usage.decision).toEqual({ input_tokens: 0, cost_usd: 0 });
  }, 60_000);
});
