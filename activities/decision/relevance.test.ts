/**
 * Relevance ranking over real HTTP against the decision simulator: the icon rubric on the
 * shared ranker, the caps (40 icons, 20 power designs), and the fallback (provider order,
 * `failed`) for every failure.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { staticSecrets } from '../../lib/secrets.js';
import { startDecisionSimulator, type DecisionSimulator } from '../../simulators/decision/server.js';
import { createDecisionClient, type DecisionClient } from './upstream/client.js';
import { createUpstreamMeter } from '../runtime/upstream-meter.js';
import { createRelevanceRanker } from '../apps/design/index.js';
import { rankByRelevance, RELEVANCE_CAPS } from './relevance.js';

const KEY = 'dk-live-rank-0c1d';
const MODEL = 'decision-v1-2026-01';
let sim: DecisionSimulator;
let client: DecisionClient;
const collections = {
  lucide: { prefix: 'lucide', name: 'Lucide', license: { spdx: 'ISC' }, author: undefined },
};
const icons = ['cog', 'house', 'home-plus', 'home'].map((name) => ({ prefix: 'lucide', name }));

beforeAll(async () => {
  sim = await startDecisionSimulator({ apiKey: KEY });
  client = createDecisionClient({
    config: { DECISION_URL: sim.url, DECISION_MODEL: MODEL, DECISION_API_KEY: undefined },
    secrets: staticSecrets({ decision_api_key: KEY }),
    timeoutMs: 2_000,
  });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const call = () => ({
  signal: new AbortController().signal,
  meter: createUpstreamMeter({ skill: 'design.search_icons' }),
});

describe('icon relevance (cap 40, icon rubric)', () => {
  it('removes scores below 1 and reorders stably, after one charged request', async () => {
    const c = call();
    const out = await createRelevanceRanker(client, MODEL)('home icon', icons, collections, c);
    // home-plus and home score 2 (one of two words), house and cog 0 (removed).
    expect(out.ordered.map((i) => i.name)).toEqual(['home-plus', 'home']);
    expect(out.applied).toEqual({ status: 'applied', evaluated: 4, removed: 2 });
    expect(c.meter.sent()).toEqual({ decision: 1 });
    const body = sim.requests()[0]!.body as { state: { candidates: { items: Record<string, string> } } };
    expect(body.state.candidates.items).toEqual({
      c0: 'cog (Lucide, ISC)',
      c1: 'house (Lucide, ISC)',
      c2: 'home-plus (Lucide, ISC)',
      c3: 'home (Lucide, ISC)',
    });
  });

  it('keeps provider order on any failure, and skips blank criteria and a missing helper', async () => {
    sim.setFault({ type: 'status', status: 429 });
    const failed = await createRelevanceRanker(client, MODEL)('home', icons, collections, call());
    expect(failed).toEqual({ ordered: icons, applied: { status: 'failed', evaluated: 0, removed: 0 } });
    sim.reset();
    expect(
      (await createRelevanceRanker(client, MODEL)('  ', icons, collections, call())).applied.status,
    ).toBe('not_requested');
    expect(
      (await createRelevanceRanker(undefined, MODEL)('home', icons, collections, call())).applied.status,
    ).toBe('not_configured');
    expect(sim.requests()).toEqual([]);
  });
});

describe('caps', () => {
  it.each([
    ['icons', RELEVANCE_CAPS.icons, 40],
    ['power designs', RELEVANCE_CAPS.power_designs, 20],
  ])('%s: at most %i scored; the rest follow unscored in provider order', async (_name, cap, expected) => {
    expect(cap).toBe(expected);
    const many = Array.from({ length: cap + 5 }, (_, i) => `part${i}${i % 2 ? ' buck' : ''}`);
    const out = await rankByRelevance({
      client,
      criteria: 'buck',
      candidates: many,
      cap,
      rubric: 'Score only the explicit part text.',
      text: (t) => t,
      ...call(),
      model: MODEL,
    });
    const body = sim.requests()[0]!.body as { questions: Record<string, unknown> };
    expect(Object.keys(body.questions)).toHaveLength(cap);
    expect(out.report).toEqual({ status: 'applied', evaluated: cap, removed: cap / 2 });
    expect(out.ordered).toEqual([...many.slice(0, cap).filter((_, i) => i % 2), ...many.slice(cap)]);
  });
});
