/**
 * Rule 9's limits over real HTTP: 429 is honoured with Retry-After (never proxied, at most one
 * wait that must fit the group deadline) and transient errors retry only the affected lookup
 * within the attempt budget.
 */
import { describe, expect, it } from 'vitest';
import { ProviderLimits, parseProviderRules } from '../../../../../lib/limits/provider-limits.js';
import { createUpstreamMeter } from '../../../../runtime/upstream-meter.js';
import { call, ok, shopCalls, useUpstreams } from './orchestration.test-helpers.js';

const up = useUpstreams();
const connects = () => up.proxy.log().filter((e) => e.method === 'CONNECT' && e.authorized);

describe('our own platform failing to count a request', () => {
  it('ends the call with that failure, not an upstream one: nothing is sent, nothing is proxied', async () => {
    // The store holding the provider limits went away mid-call (a PostgreSQL restart).
    const down = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    const counting = createUpstreamMeter({ skill: 'hosting.search_domains' });
    const meter = { ...counting, charge: () => Promise.reject(down) };
    const res = await call(up, { requests: [{ query: 'cedar.com' }, { query: 'cedar' }] }, { meter });
    expect(res.error).toBe(down);
    expect(res.output).toBeUndefined();
    expect(shopCalls(up.sim)).toEqual([]);
    expect(up.proxy.log()).toEqual([]);
  });
});

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

/** Arrival times of the shop log, relative to the first 429's arrival. */
function afterFirst429(up: ReturnType<typeof useUpstreams>) {
  const log = up.sim.requests();
  const limited = log.find((r) => r.status === 429)!;
  return log.map((r) => ({ call: shopCalls({ requests: () => [r] } as never)[0]!, ms: r.at - limited.at }));
}

describe('Retry-After holds for the whole call', () => {
  const groups = [
    { id: 'g', query: 'gatewood', tlds: ['com', 'net', 'org', 'io'], max_results: 4 },
    { id: 'b', query: 'birchwood.com' },
  ];

  it('after a 429 no operation of the call, in any group, sends before the Retry-After time', async () => {
    up.sim.setFaults([
      { type: 'status', status: 429, retryAfter: '1', op: 'lookup', match: 'gatewood.com', times: 1 },
    ]);
    const res = await call(up, { requests: groups });
    const log = afterFirst429(up);
    // Two operations were in flight when the 429 came (the limit is 2); nothing else was sent
    // until a second later: the retried lookup, the group's other lookups and the sibling group.
    expect(
      log
        .filter((r) => r.ms < 1000)
        .map((r) => r.call)
        .sort(),
    ).toEqual(['lookup gatewood.com', 'lookup gatewood.net']);
    expect(
      log
        .filter((r) => r.ms >= 1000)
        .map((r) => r.call)
        .sort(),
    ).toEqual(['lookup birchwood.com', 'lookup gatewood.com', 'lookup gatewood.io', 'lookup gatewood.org']);
    expect(up.proxy.log()).toEqual([]);
    expect(res.output!.results.map((g) => [g.id, g.error, g.results.length])).toEqual([
      ['g', null, 4],
      ['b', null, 1],
    ]);
  });

  it('a wait that does not fit the deadline: the affected groups report UPSTREAM_RATE_LIMITED and nothing more is sent', async () => {
    up.sim.setFaults([
      { type: 'status', status: 429, retryAfter: '30', op: 'lookup', match: 'gatewood.com' },
    ]);
    const res = await call(up, { requests: groups }, { limits: { groupDeadlineMs: 3000 } });
    expect(shopCalls(up.sim).sort()).toEqual(['lookup gatewood.com', 'lookup gatewood.net']);
    const [g, b] = res.output!.results;
    expect(g).toMatchObject({ partial: true, error: { code: 'UPSTREAM_RATE_LIMITED', retry_after: 30 } });
    expect(g!.results.map((r) => r.domain)).toEqual(['gatewood.net']);
    expect(b).toMatchObject({
      partial: false,
      results: [],
      error: { code: 'UPSTREAM_RATE_LIMITED', retry_after: 30 },
    });
    expect(b!.error!.message).toBe(
      'Not completed: exact lookup (.com): rate limited (HTTP 429; retry after 30 s). nothing was checked.',
    );
  });

  it('a 429 without Retry-After holds the call for 60 s (never a guess of zero)', async () => {
    up.sim.setFaults([{ type: 'status', status: 429, op: 'lookup', match: 'gatewood.com' }]);
    const res = await call(up, { requests: groups }, { limits: { groupDeadlineMs: 3000 } });
    expect(shopCalls(up.sim).sort()).toEqual(['lookup gatewood.com', 'lookup gatewood.net']);
    expect(res.output!.results[1]!.error).toMatchObject({ code: 'UPSTREAM_RATE_LIMITED', retry_after: 60 });
  });

  it('the anonymous route never waits: the first 429 ends the call at once with its Retry-After', async () => {
    up.sim.setFaults([
      { type: 'status', status: 429, retryAfter: '1', op: 'lookup', match: 'gatewood.com', times: 1 },
    ]);
    const res = await call(up, { requests: [groups[0]] }, { anonymous: true });
    expect(res.elapsedMs).toBeLessThan(900);
    expect(res.error).toMatchObject({
      code: 'UPSTREAM_RATE_LIMITED',
      message: 'The shop asked us to slow down; retry in 1 s.',
      details: { provider: 'shop', retry_after_seconds: 1 },
      retryAfterMs: 1000,
    });
    expect(shopCalls(up.sim).sort()).toEqual(['lookup gatewood.com', 'lookup gatewood.net']);
  });

  it('our own shop provider limit closes the gate like a 429, and counts only requests really sent', async () => {
    const limits = new ProviderLimits(parseProviderRules('shop=3/60'));
    const meter = createUpstreamMeter({ skill: 'hosting.search_domains', limits });
    const res = await call(up, { requests: groups }, { limits: { groupDeadlineMs: 3000 }, meter });
    // The limiter is FIFO: the group's first three lookups are charged and sent, the fourth is
    // refused by the limit (closing the gate for its 60 s window), and the sibling never sends.
    expect(shopCalls(up.sim).sort()).toEqual([
      'lookup gatewood.com',
      'lookup gatewood.net',
      'lookup gatewood.org',
    ]);
    expect(meter.sent()).toEqual({ shop: 3 });
    const [g, b] = res.output!.results;
    expect(g).toMatchObject({ partial: true, error: { code: 'UPSTREAM_RATE_LIMITED', retry_after: 60 } });
    expect(g!.results.map((r) => r.domain)).toEqual(['gatewood.com', 'gatewood.net', 'gatewood.org']);
    expect(b).toMatchObject({
      partial: false,
      results: [],
      error: { code: 'UPSTREAM_RATE_LIMITED', retry_after: 60 },
    });
  });

  it('on the anonymous route our own limit ends the call at once, saying so', async () => {
    const limits = new ProviderLimits(parseProviderRules('shop=1/60'));
    const meter = createUpstreamMeter({ skill: 'hosting.search_domains', limits });
    const res = await call(up, { requests: [groups[0]] }, { anonymous: true, meter });
    expect(res.elapsedMs).toBeLessThan(900);
    expect(res.error).toMatchObject({
      code: 'UPSTREAM_RATE_LIMITED',
      message: 'The shop provider limit is used up; retry in 60 s.',
      details: { provider: 'shop', retry_after_seconds: 60 },
    });
    expect(meter.sent()).toEqual({ shop: 1 });
  });
});
