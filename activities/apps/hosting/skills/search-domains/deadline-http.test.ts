/**
 * Partial answers and the search timeouts over real HTTP: stalls, the idle timeout, the group
 * deadline and incomplete streams keep the checks that completed and mark the group partial;
 * total failure becomes one catalogue error. Deadlines are shortened through the skill options.
 */
import { describe, expect, it } from 'vitest';
import { staticSecrets } from '../../../../../lib/secrets.js';
import { SkillflowError, parseOrThrow } from '../../../../../lib/errors/skillflow-error.js';
import { startShopSimulator } from '../../../../../simulators/shop/server.js';
import { toApplicationFailure } from '../../../../runtime/boundary.js';
import { createShopClient } from '../../upstream/index.js';
import { call, ok, shopCalls, useUpstreams } from './orchestration.test-helpers.js';
import { SearchDomainsInputSchema } from './input.js';
import { toWorkflowOutput } from './output.js';
import { createRelevanceDecider } from './relevance-decision.js';
import { searchDomains, searchLimits, totalFailureError } from './search-domains.js';
import { createUpstreamMeter } from '../../../../runtime/upstream-meter.js';
import { POLICY_PROFILES } from '../../../../policy.js';

const SEARCH_DEADLINES = POLICY_PROFILES['upstream-search'].deadlines;

const up = useUpstreams();
const connects = () => up.proxy.log().filter((e) => e.method === 'CONNECT');

describe('cut groups keep their completed checks', () => {
  it('a stalled stream times out (idle), gets its one proxy attempt, and the exact lookups survive', async () => {
    up.sim.setFaults([{ type: 'stall', op: 'suggest' }]);
    const res = await call(
      up,
      { requests: [{ query: 'cedarwood', tlds: ['com', 'net'] }, { query: 'cedarwood.org' }] },
      { limits: { idleTimeoutMs: 300 } },
    );
    expect(shopCalls(up.sim).filter((c) => c.startsWith('suggest'))).toEqual([
      'suggest cedarwood|com|1',
      'suggest cedarwood|com|1',
    ]);
    expect(connects()).toHaveLength(1);
    const [g, sibling] = res.output!.results;
    expect(g).toMatchObject({ partial: true, error: { code: 'UPSTREAM_UNAVAILABLE' } });
    expect(g!.error!.message).toBe(
      'Not completed: suggestion page 1 (.com): no answer within the idle timeout. 2 completed check(s) are kept.',
    );
    expect(g!.results.map((r) => r.domain)).toEqual(['cedarwood.com', 'cedarwood.net']);
    expect(sibling).toMatchObject({ partial: false, error: null, results: [{ domain: 'cedarwood.org' }] });
    // undici's idle timers tick at about 1 s, so each 300 ms timeout fires after ~1 s.
    expect(res.elapsedMs).toBeLessThan(3000);
  });

  it('the group deadline cuts a stall (no proxy attempt after it) and the lookups survive, on time', async () => {
    up.sim.setFaults([{ type: 'stall', op: 'suggest' }]);
    const res = await call(
      up,
      { requests: [{ query: 'cedarwood', tlds: ['com', 'net'] }] },
      { limits: { groupDeadlineMs: 600 } },
    );
    expect(res.elapsedMs).toBeGreaterThanOrEqual(590);
    expect(res.elapsedMs).toBeLessThan(1500);
    expect(connects()).toEqual([]);
    const suggest = up.sim.requests().filter((r) => r.op === 'suggest');
    expect(suggest).toHaveLength(1);
    const g = res.output!.results[0]!;
    expect(g).toMatchObject({ partial: true, error: { code: 'DEADLINE_EXCEEDED' } });
    expect(g.error!.message).toBe(
      'Not completed: suggestion page 1 (.com): the 0.6 s group deadline passed. 2 completed check(s) are kept.',
    );
    expect(g.results.map((r) => r.domain)).toEqual(['cedarwood.com', 'cedarwood.net']);
    // The connection was closed when the deadline passed.
    await new Promise((r) => setTimeout(r, 50));
    expect(up.sim.requests().find((r) => r.op === 'suggest')?.clientClosed).toBe(true);
  });

  it('a stream cut mid-way by the deadline keeps its complete candidates and counts the unchecked ones', async () => {
    const slow = await startShopSimulator({ eventDelayMs: 150 });
    try {
      // Events at 0, 150, 300, 450, 600 ms: meta, pagination, das and billing of the first name, suggestions.
      const res = await call(
        up,
        { requests: [{ query: 'cedarwood' }] },
        { shopUrl: slow.url, proxy: false, limits: { groupDeadlineMs: 675 } },
      );
      const g = res.output!.results[0]!;
      expect(g.results.map((r) => [r.domain, r.availability, r.pricing_status])).toEqual([
        ['cedarwood.com', 'available', 'priced'],
      ]);
      expect(g).toMatchObject({ partial: true, error: { code: 'DEADLINE_EXCEEDED' } });
      expect(g.error!.message).toContain(
        '4 suggested name(s) were not checked; 1 completed check(s) are kept',
      );
    } finally {
      await slow.close();
    }
  });

  it('an incomplete stream without a proxy keeps its complete children and is partial', async () => {
    up.sim.setFaults([{ type: 'no_done', op: 'suggest' }]);
    const out = await ok(up, { requests: [{ query: 'cedarwood', max_results: 5 }] }, { proxy: false });
    expect(shopCalls(up.sim)).toEqual(['suggest cedarwood||1']);
    const g = out.results[0]!;
    expect(g.results.map((r) => r.domain)).toEqual([
      'cedarwood.com',
      'getcedarwood.online',
      'cedarwoodhq.ai',
      'mycedarwood.net',
      'cedarwoodapp.app',
    ]);
    expect(g).toMatchObject({ partial: true, error: { code: 'UPSTREAM_MALFORMED' } });
    expect(g.error!.message).toContain(
      'suggestion page 1 (any extension): the stream ended without completing',
    );
  });

  it('cancellation by the caller rejects the call with its reason', async () => {
    up.sim.setFaults([{ type: 'stall', op: 'suggest' }]);
    const controller = new AbortController();
    const reason = new Error('activity cancelled');
    setTimeout(() => controller.abort(reason), 100);
    const res = await call(up, { requests: [{ query: 'cedarwood' }] }, { signal: controller.signal });
    expect(res.error).toBe(reason);
    expect(res.elapsedMs).toBeLessThan(1000);
  });
});

describe('total failure', () => {
  it('every group failed → one catalogue error; the details name indexes and codes only', async () => {
    const res = await call(
      up,
      { requests: [{ query: 'fault-500.com' }, { query: 'fault-502.com' }] },
      { proxy: false },
    );
    expect(res.error).toBeInstanceOf(SkillflowError);
    const err = res.error as SkillflowError;
    expect([err.code, err.status, err.message]).toEqual([
      'UPSTREAM_UNAVAILABLE',
      503,
      'All 2 domain search(es) failed upstream; nothing could be checked.',
    ]);
    expect(err.details).toEqual({
      groups: [
        { index: 0, code: 'UPSTREAM_UNAVAILABLE' },
        { index: 1, code: 'UPSTREAM_UNAVAILABLE' },
      ],
    });
    expect(JSON.stringify(err.details) + err.message).not.toContain('fault-50');
  });

  it('every group rate-limited → UPSTREAM_RATE_LIMITED whose Retry-After becomes Temporal’s nextRetryDelay', async () => {
    const res = await call(
      up,
      { requests: [{ query: 'fault-429.com' }, { query: 'fault-429.net' }] },
      { limits: { groupDeadlineMs: 2000 } },
    );
    expect(connects()).toEqual([]);
    const err = res.error as SkillflowError;
    expect([err.code, err.status, err.retryAfterMs]).toEqual(['UPSTREAM_RATE_LIMITED', 429, 7000]);
    const failure = toApplicationFailure(err);
    expect([failure.type, failure.nonRetryable, failure.nextRetryDelay]).toEqual([
      'UPSTREAM_RATE_LIMITED',
      false,
      7000,
    ]);
  });

  it('the workflow view of a total failure: no results, count 0, the error, raw groups kept', async () => {
    const shop = createShopClient({
      idleTimeoutMs: SEARCH_DEADLINES.idleTimeoutMs,
      shopUrl: up.sim.url,
      secrets: staticSecrets({}),
    });
    try {
      const { output } = await searchDomains(
        parseOrThrow(SearchDomainsInputSchema, { requests: [{ id: 'x', query: 'fault-403.com' }] }),
        {
          shop,
          proxyEnabled: false,
          decide: createRelevanceDecider(undefined, 'decision-test', SEARCH_DEADLINES.decisionTimeoutMs),
          clock: () => new Date(0),
          shopOrigin: shop.origin,
          limits: searchLimits(SEARCH_DEADLINES),
          meter: createUpstreamMeter({ skill: 'hosting.search_domains' }),
        },
      );
      expect(totalFailureError(output)?.code).toBe('UPSTREAM_UNAVAILABLE');
      const view = toWorkflowOutput(output);
      expect(view).toMatchObject({ results: [], result_count: 0, error: { code: 'UPSTREAM_UNAVAILABLE' } });
      expect(view.raw.results[0]).toMatchObject({
        id: 'x',
        results: [],
        checked_results: [],
        partial: false,
      });
    } finally {
      await shop.close();
    }
  });

  it('one failed group among working ones does not fail the call', async () => {
    const out = await ok(
      up,
      { requests: [{ query: 'fault-403.com' }, { query: 'cedarwood.com' }] },
      { proxy: false },
    );
    expect(out.results.map((g) => g.error?.code ?? null)).toEqual(['UPSTREAM_UNAVAILABLE', null]);
  });
});
