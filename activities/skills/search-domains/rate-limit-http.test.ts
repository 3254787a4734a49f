/**
 * Rule 9's limits over real HTTP: 429 is honoured with Retry-After (never proxied, at most one
 * wait that must fit the group deadline) and transient errors retry only the affected lookup
 * within the attempt budget.
 */
import { describe, expect, it } from 'vitest';
import { call, ok, shopCalls, useUpstreams } from './orchestration.test-helpers.js';

const up = useUpstreams();
const connects = () => up.proxy.log().filter((e) => e.method === 'CONNECT' && e.authorized);

describe('429 and transient errors', () => {
  it('429 is never proxied: the group reports UPSTREAM_RATE_LIMITED with retry_after when the wait does not fit', async () => {
    const res = await call(
      up,
      { requests: [{ query: 'fault-429.com' }, { query: 'cedarwood.com' }] },
      { limits: { groupDeadlineMs: 3000 } },
    );
    expect(up.proxy.log()).toEqual([]);
    expect(shopCalls(up.sim).filter((c) => c.includes('fault-429'))).toEqual(['lookup fault-429.com']);
    expect(res.output!.results[0]!.error).toMatchObject({ code: 'UPSTREAM_RATE_LIMITED', retry_after: 7 });
    expect(res.output!.results[1]!.error).toBeNull();
  });

  it('429 with a Retry-After that fits the deadline: one direct retry after the wait', async () => {
    up.sim.setFaults([{ type: 'status', status: 429, retryAfter: '1', op: 'lookup', times: 1 }]);
    const res = await call(up, { requests: [{ query: 'cedarwood.com' }] });
    expect(up.proxy.log()).toEqual([]);
    expect(shopCalls(up.sim)).toEqual(['lookup cedarwood.com', 'lookup cedarwood.com']);
    expect(res.elapsedMs).toBeGreaterThanOrEqual(1000);
    expect(res.output!.results[0]).toMatchObject({ error: null, results: [{ availability: 'available' }] });
  });

  it('after a 429 the group asks nothing more (no suggestion pages)', async () => {
    up.sim.setFaults([
      { type: 'status', status: 429, retryAfter: '30', op: 'lookup', match: 'cedarwood.net' },
    ]);
    const res = await call(
      up,
      { requests: [{ query: 'cedarwood', tlds: ['com', 'net'] }] },
      { limits: { groupDeadlineMs: 3000 } },
    );
    expect(shopCalls(up.sim).sort()).toEqual(['lookup cedarwood.com', 'lookup cedarwood.net']);
    expect(res.output!.results[0]).toMatchObject({
      partial: true,
      error: { code: 'UPSTREAM_RATE_LIMITED', retry_after: 30 },
    });
    expect(res.output!.results[0]!.results.map((r) => r.domain)).toEqual(['cedarwood.com']);
  });

  it('a transient error on one exact lookup retries only that lookup', async () => {
    up.sim.setFaults([{ type: 'status', status: 503, op: 'lookup', match: 'cedarwood.net', times: 1 }]);
    const out = await ok(
      up,
      { requests: [{ query: 'cedarwood', tlds: ['com', 'net', 'org'], max_results: 3 }] },
      { proxy: false },
    );
    expect(shopCalls(up.sim).sort()).toEqual([
      'lookup cedarwood.com',
      'lookup cedarwood.net',
      'lookup cedarwood.net',
      'lookup cedarwood.org',
    ]);
    expect(out.results[0]!.results.map((r) => r.domain)).toEqual([
      'cedarwood.com',
      'cedarwood.net',
      'cedarwood.org',
    ]);
  });

  it('fault-flaky-2: direct 503, proxy 503, then one direct retry succeeds (3 attempts, 1 proxied)', async () => {
    const out = await ok(up, { requests: [{ query: 'fault-flaky-2.com' }] });
    expect(shopCalls(up.sim)).toEqual([
      'lookup fault-flaky-2.com',
      'lookup fault-flaky-2.com',
      'lookup fault-flaky-2.com',
    ]);
    expect(connects()).toHaveLength(1);
    expect(out.results[0]).toMatchObject({
      error: null,
      results: [{ domain: 'fault-flaky-2.com', availability: 'available' }],
    });
  });

  it('fault-flaky-3 exhausts the 3-attempt budget and the group fails', async () => {
    const out = await ok(up, { requests: [{ query: 'fault-flaky-3.com' }, { query: 'cedarwood.com' }] });
    expect(shopCalls(up.sim).filter((c) => c.includes('flaky'))).toHaveLength(3);
    expect(out.results[0]).toMatchObject({ partial: false, error: { code: 'UPSTREAM_UNAVAILABLE' } });
  });
});
