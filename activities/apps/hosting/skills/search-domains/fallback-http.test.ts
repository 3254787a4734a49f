/**
 * Rule 9 over real HTTP: which requests went direct and which through the real basic-auth
 * proxy (its log), the 429 handling, per-lookup retries and the merge rule.
 */
import { describe, expect, it } from 'vitest';
import { parseProviderRules, ProviderLimits } from '../../../../../lib/limits/provider-limits.js';
import { createUpstreamMeter } from '../../../../runtime/upstream-meter.js';
import {
  call,
  ok,
  PROXY_PASS,
  PROXY_USER,
  renderings,
  shopCalls,
  useUpstreams,
} from './orchestration.test-helpers.js';

const up = useUpstreams();
const connects = () => up.proxy.log().filter((e) => e.method === 'CONNECT' && e.authorized);

describe('one lazy proxy attempt', () => {
  it.each([
    ['403', { type: 'status' as const, status: 403 }],
    ['503', { type: 'status' as const, status: 503 }],
    ['malformed JSON', { type: 'malformed' as const }],
    ['an answer for another name', { type: 'wrong_fqdn' as const }],
  ])(
    'a lookup failing direct with %s goes once through the proxy and its answer is used',
    async (_, fault) => {
      up.sim.setFaults([{ ...fault, op: 'lookup', times: 1 }]);
      const out = await ok(up, { requests: [{ query: 'cedarwood.com' }] });
      expect(shopCalls(up.sim)).toEqual(['lookup cedarwood.com', 'lookup cedarwood.com']);
      expect(connects()).toEqual([
        { method: 'CONNECT', host: new URL(up.sim.url).host, path: undefined, authorized: true },
      ]);
      expect(out.results[0]).toMatchObject({ partial: false, error: null });
      expect(out.results[0]!.results[0]).toMatchObject({
        domain: 'cedarwood.com',
        availability: 'available',
        pricing_status: 'priced',
      });
    },
  );

  it('an incomplete stream goes once through the proxy and the pages are merged', async () => {
    up.sim.setFaults([{ type: 'no_done', op: 'suggest', times: 1 }]);
    const out = await ok(up, { requests: [{ query: 'cedarwood', tlds: ['io'], max_results: 3 }] });
    expect(shopCalls(up.sim)).toEqual([
      'lookup cedarwood.io',
      'suggest cedarwood|io|1',
      'suggest cedarwood|io|1',
    ]);
    expect(connects()).toHaveLength(1);
    expect(out.results[0]).toMatchObject({ partial: false, error: null });
    expect(out.results[0]!.results.map((r) => r.domain)).toEqual([
      'cedarwood.io',
      'getcedarwood.io',
      'cedarwoodapp.io',
    ]);
  });

  it('proxy evidence adds no price to a name the direct stream already confirmed', async () => {
    // Direct: every das arrives, every billing fails, no done. Proxy: the full, priced page.
    up.sim.setFaults([
      { type: 'no_done', op: 'suggest', times: 1 },
      { type: 'billing_failed', op: 'suggest', times: 1 },
    ]);
    const out = await ok(up, { requests: [{ query: 'cedarwood', tlds: ['io'], max_results: 3 }] });
    expect(connects()).toHaveLength(1);
    const byName = Object.fromEntries(
      out.results[0]!.checked_results.map((r) => [r.domain, r.pricing_status]),
    );
    expect(byName).toEqual({
      'cedarwood.io': 'priced',
      'getcedarwood.io': 'failed',
      'cedarwoodapp.io': 'failed',
    });
  });

  it('after the proxy failed too, the group reports the shop’s failure, and nothing else is retried', async () => {
    const out = await ok(up, { requests: [{ query: 'fault-403.com' }, { query: 'cedarwood.net' }] });
    expect(shopCalls(up.sim).filter((c) => c.includes('fault-403'))).toEqual([
      'lookup fault-403.com',
      'lookup fault-403.com',
    ]);
    expect(connects()).toHaveLength(1);
    expect(out.results[0]).toMatchObject({
      results: [],
      partial: false,
      error: { code: 'UPSTREAM_UNAVAILABLE' },
    });
    expect(out.results[0]!.error!.message).toContain('exact lookup (.com): HTTP 403');
    expect(out.results[1]).toMatchObject({ error: null, results: [{ domain: 'cedarwood.net' }] });
  });

  it('without PROXY_URL nothing is proxied', async () => {
    up.sim.setFaults([{ type: 'status', status: 403, op: 'lookup', times: 1 }]);
    const out = await ok(
      up,
      { requests: [{ query: 'cedarwood.com' }, { query: 'other.com' }] },
      { proxy: false },
    );
    expect(up.proxy.log()).toEqual([]);
    expect(out.results[0]!.error?.code ?? out.results[1]!.error?.code).toBe('UPSTREAM_UNAVAILABLE');
  });
});

describe('answers never trigger the proxy', () => {
  it('valid in-use answer, unsupported suffix and das error stay as they are, with no proxied request', async () => {
    const out = await ok(up, {
      requests: [{ query: 'example.com' }, { query: 'cedar.invalid' }, { query: 'fault-das.com' }],
    });
    expect(up.proxy.log()).toEqual([]);
    expect(shopCalls(up.sim).sort()).toEqual([
      'lookup cedar.invalid',
      'lookup example.com',
      'lookup fault-das.com',
    ]);
    const [inUse, unsupported, dasError] = out.results;
    expect(inUse!.results).toMatchObject([
      { domain: 'example.com', availability: 'unavailable', pricing_status: 'not_applicable' },
    ]);
    for (const g of [unsupported!, dasError!]) {
      expect(g.results).toEqual([]);
      expect(g.checked_results).toMatchObject([{ availability: 'unknown', registration_tiers: [] }]);
      expect(g.warnings.map((w) => w.code)).toEqual(['EXACT_NAME_UNKNOWN']);
      expect(g.error).toBeNull();
    }
  });

  it('missing prices (billing_failed in the stream) stay unknown and trigger no proxy', async () => {
    up.sim.setFaults([{ type: 'billing_failed', op: 'suggest' }]);
    const out = await ok(up, { requests: [{ query: 'cedarwood', tlds: ['io'], max_results: 3 }] });
    expect(up.proxy.log()).toEqual([]);
    expect(shopCalls(up.sim)).toEqual(['lookup cedarwood.io', 'suggest cedarwood|io|1']);
    expect(
      out.results[0]!.results.map((r) => [
        r.domain,
        r.availability,
        r.pricing_status,
        r.registration_tiers.length,
      ]),
    ).toEqual([
      ['cedarwood.io', 'available', 'priced', 1],
      ['getcedarwood.io', 'available', 'failed', 0],
      ['cedarwoodapp.io', 'available', 'failed', 0],
    ]);
    expect(out.results[0]).toMatchObject({ partial: false, error: null });
  });

  it('das_failed stays unknown (never unavailable), fills no slot and triggers no proxy', async () => {
    const out = await ok(up, { requests: [{ query: 'fault-das', tlds: ['io'] }] });
    expect(up.proxy.log()).toEqual([]);
    const g = out.results[0]!;
    expect(g.results).toEqual([]);
    // The lookup's das error carries no price; stream billing events did arrive for the others.
    expect(g.checked_results.map((r) => [r.domain, r.availability, r.pricing_status])).toEqual([
      ['fault-das.io', 'unknown', 'not_applicable'],
      ['getfault-das.io', 'unknown', 'priced'],
      ['fault-dasapp.io', 'unknown', 'priced'],
      ['thefault-das.io', 'unknown', 'priced'],
      ['fault-dasonline.io', 'unknown', 'priced'],
      ['tryfault-das.io', 'unknown', 'priced'],
      ['fault-daslab.io', 'unknown', 'priced'],
    ]);
    expect(g.warnings.map((w) => w.code)).toEqual(['AVAILABILITY_UNKNOWN']);
    expect(g).toMatchObject({ partial: false, error: null });
  });

  it('prices in another currency stay unknown', async () => {
    up.sim.setFaults([{ type: 'wrong_currency', op: 'lookup' }]);
    const out = await ok(up, { requests: [{ query: 'cedarwood.com', currency: 'EUR' }] });
    expect(up.proxy.log()).toEqual([]);
    expect(out.results[0]!.results[0]).toMatchObject({
      currency: null,
      pricing_status: 'currency_mismatch',
      registration_tiers: [],
      renewal_tiers: [],
    });
    expect(out.results[0]!.warnings.map((w) => w.code)).toEqual(['CURRENCY_MISMATCH']);
  });
});

describe('secrets', () => {
  it('proxy credentials appear in no output, error or log', async () => {
    up.sim.setFaults([{ type: 'status', status: 503, op: 'lookup' }]);
    const res = await call(up, { requests: [{ query: 'cedarwood.com' }] });
    expect(connects()).toHaveLength(1);
    expect(res.error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    const text = [renderings(res.error), renderings(res.output), res.logs.join('\n')].join('\n');
    for (const secret of [
      PROXY_USER,
      PROXY_PASS,
      Buffer.from(`${PROXY_USER}:${PROXY_PASS}`).toString('base64'),
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('a group fails alone', () => {
  it('a malformed answer in one group and our own shop limit holding the other’s proxy attempt: the call says when to retry, never 503', async () => {
    // Three requests a minute: both direct lookups and one proxy attempt fit; the fourth does not.
    const meter = createUpstreamMeter({
      skill: 'hosting.search_domains',
      limits: new ProviderLimits(parseProviderRules('shop=3/60')),
    });
    up.sim.setFaults([{ type: 'status', status: 403, op: 'lookup', match: 'cedarwood', times: 1 }]);
    const res = await call(
      up,
      {
        requests: [
          { id: 'odd', query: 'fault-fqdn.com' },
          { id: 'held', query: 'cedarwood.net' },
        ],
      },
      { meter },
    );
    expect(meter.sent()).toEqual({ shop: 3 });
    expect(res.error).toMatchObject({
      code: 'UPSTREAM_RATE_LIMITED',
      message: 'All 2 domain search(es) failed upstream; nothing could be checked.',
      details: {
        retry_after_seconds: 60,
        groups: [
          { index: 0, code: 'UPSTREAM_MALFORMED' },
          { index: 1, code: 'UPSTREAM_RATE_LIMITED', retry_after: 60 },
        ],
      },
      retryAfterMs: 60_000,
    });
  });

  it('a malformed answer in one group never costs the other its proxy answer', async () => {
    up.sim.setFaults([{ type: 'status', status: 403, op: 'lookup', match: 'cedarwood', times: 1 }]);
    const out = await ok(up, {
      requests: [
        { id: 'odd', query: 'fault-fqdn.com' },
        { id: 'ok', query: 'cedarwood.net' },
      ],
    });
    expect(out.results[0]).toMatchObject({
      id: 'odd',
      results: [],
      checked_results: [],
      partial: false,
      error: {
        code: 'UPSTREAM_MALFORMED',
        message: 'Not completed: exact lookup (.com): a malformed answer. nothing was checked.',
      },
    });
    expect(out.results[1]).toMatchObject({ id: 'ok', partial: false, error: null });
    expect(out.results[1]!.results.map((r) => [r.domain, r.availability, r.pricing_status])).toEqual([
      ['cedarwood.net', 'available', 'priced'],
    ]);
    expect(out.results[1]!.results[0]!.registration_tiers[0]).toMatchObject({
      price_before_taxes: 12.49,
      price_after_taxes: 14.86,
    });
  });

  it('a proxy that refuses its credentials does not stop the direct retry of a transient failure', async () => {
    up.proxy.setFault('auth_rejected');
    up.sim.setFaults([{ type: 'status', status: 503, op: 'lookup', times: 1 }]);
    const out = await ok(up, { requests: [{ query: 'cedarwood.com' }] });
    up.proxy.setFault(undefined);
    expect(shopCalls(up.sim)).toEqual(['lookup cedarwood.com', 'lookup cedarwood.com']);
    expect(connects()).toEqual([]);
    expect(up.proxy.log().map((e) => [e.method, e.authorized])).toEqual([['CONNECT', false]]);
    expect(out.results[0]).toMatchObject({ partial: false, error: null });
    expect(out.results[0]!.results[0]).toMatchObject({ domain: 'cedarwood.com', availability: 'available' });
  });

  it('a hung proxy costs the idle timeout, not the call: the lookup is retried directly', async () => {
    up.proxy.setFault('stall');
    up.sim.setFaults([{ type: 'status', status: 503, op: 'lookup', times: 1 }]);
    const res = await call(
      up,
      { requests: [{ query: 'cedarwood.com' }] },
      { limits: { groupDeadlineMs: 4000, idleTimeoutMs: 500 } },
    );
    up.proxy.setFault(undefined);
    expect(res.error).toBeUndefined();
    expect(shopCalls(up.sim)).toEqual(['lookup cedarwood.com', 'lookup cedarwood.com']);
    expect(res.output!.results[0]!.results[0]).toMatchObject({
      domain: 'cedarwood.com',
      availability: 'available',
    });
    expect(res.elapsedMs).toBeLessThan(4000);
  });

  it('a hung proxy never holds the call past the group deadline', async () => {
    up.proxy.setFault('stall');
    up.sim.setFaults([{ type: 'status', status: 403, op: 'lookup' }]);
    const res = await call(
      up,
      { requests: [{ query: 'cedarwood.com' }] },
      { limits: { groupDeadlineMs: 1000, idleTimeoutMs: 5000 } },
    );
    up.proxy.setFault(undefined);
    expect(res.elapsedMs).toBeLessThan(1500);
    expect(res.error).toMatchObject({ code: 'DEADLINE_EXCEEDED' });
  });
});
