/**
 * The search modes and their limits over real HTTP: which upstream requests each mode sends,
 * with which parameters and headers, and the shared 2-slot limiter across 5 groups.
 */
import { describe, expect, it } from 'vitest';
import { BROWSER_USER_AGENT } from '../../upstream/index.js';
import { call, CHECKED_AT, ok, shopCalls, useUpstreams } from './orchestration.test-helpers.js';

const up = useUpstreams();

describe('modes', () => {
  it('an FQDN query sends exactly one lookup with the exact parameters and browser headers', async () => {
    const out = await ok(up, { requests: [{ query: 'Cedar.Online', currency: 'USD', country: 'us' }] });
    const reqs = up.sim.requests();
    expect(reqs).toHaveLength(1);
    expect(reqs[0]).toMatchObject({
      op: 'lookup',
      query: 'search=cedar.online&currency=USD&country=US&grid=A',
    });
    expect(reqs[0]!.headers['user-agent']).toBe(BROWSER_USER_AGENT);
    expect(reqs[0]!.headers.referer).toBe(`${up.sim.url}/`);
    expect(reqs[0]!.headers).not.toHaveProperty('origin');
    const [r] = out.results[0]!.results;
    expect(r).toMatchObject({
      domain: 'cedar.online',
      availability: 'available',
      premium: true,
      currency: 'USD',
      taxes: [],
    });
    expect(r!.registration_tiers[0]).toMatchObject({
      price_before_taxes: 160.92,
      normal_price_before_taxes: 214.92,
      type: 'premium',
    });
  });

  it('a keyword with tlds: one lookup per extension first, then at most 2 suggestion pages with one tlds value each', async () => {
    const out = await ok(up, {
      requests: [{ query: 'cedarwood', tlds: ['com', 'net', 'org'], max_results: 20 }],
    });
    const calls = shopCalls(up.sim);
    expect(calls.slice(0, 3).sort()).toEqual([
      'lookup cedarwood.com',
      'lookup cedarwood.net',
      'lookup cedarwood.org',
    ]);
    expect(calls.slice(3)).toEqual(['suggest cedarwood|com|1', 'suggest cedarwood|net|1']);
    for (const r of up.sim.requests().filter((q) => q.op === 'suggest')) {
      expect(r.params.tlds).toHaveLength(1);
      expect(r.params.tlds![0]).not.toContain(',');
      expect(r.query).toMatch(
        /^search=cedarwood&currency=EUR&country=DE&grid=A&lang=en&page=1&per_page=5&source=shop&lock_sentence=false&phases=golive&tlds=(com|net)$/,
      );
      expect(r.headers.accept).toBe('text/event-stream');
    }
    const g = out.results[0]!;
    // Exact lookups first, then suggestions in provider order; .online/.nyc suggestions are outside tlds.
    expect(g.results.map((r) => r.domain)).toEqual([
      'cedarwood.com',
      'cedarwood.net',
      'cedarwood.org',
      'getcedarwood.com',
      'cedarwoodapp.com',
      'getcedarwood.net',
      'cedarwoodapp.net',
    ]);
    expect(g.checked_results.every((r) => /\.(com|net|org)$/.test(r.domain))).toBe(true);
  });

  it('no suggestion page is requested when the exact lookups already fill max_results', async () => {
    await ok(up, { requests: [{ query: 'cedarwood', tlds: ['com', 'net'], max_results: 2 }] });
    expect(shopCalls(up.sim).sort()).toEqual(['lookup cedarwood.com', 'lookup cedarwood.net']);
  });

  it('a keyword without tlds sends no extension filter and keeps the shop’s own ranking of extensions', async () => {
    const out = await ok(up, { requests: [{ query: 'cedarwood' }] });
    expect(shopCalls(up.sim)).toEqual(['suggest cedarwood||1', 'suggest cedarwood||2']);
    // No `tlds` parameter at all, not an empty one: the shop decides which extensions to rank.
    expect(up.sim.requests().map((r) => Object.hasOwn(r.params, 'tlds'))).toEqual([false, false]);
    expect(out.results[0]!.results.map((r) => r.domain)).toEqual([
      'cedarwood.com',
      'getcedarwood.online',
      'cedarwoodhq.ai',
      'mycedarwood.net',
      'cedarwoodapp.app',
      'thecedarwood.io',
      'cedarwoodhub.org',
      'cedarwoodonline.de',
      'trycedarwood.com',
      'cedarwoodlab.online',
    ]);
  });

  it('a restricted extension’s restriction reaches the result as plain text', async () => {
    const out = await ok(up, { requests: [{ query: 'cedarwood', tlds: ['nyc'], max_results: 3 }] });
    expect(out.results[0]!.results[0]).toMatchObject({
      domain: 'cedarwood.nyc',
      restrictions: 'Registrants must have a New York City address. Read more',
    });
  });

  it('a brief is reduced to a keyword before anything goes upstream', async () => {
    const out = await ok(up, {
      requests: [{ query: 'a cozy bakery in Berlin selling sourdough', max_results: 3 }],
    });
    expect(shopCalls(up.sim)).toEqual(['suggest bakerysourdough||1']);
    expect(out.results[0]).toMatchObject({
      searched_query: 'bakerysourdough',
      warnings: [{ code: 'QUERY_REDUCED' }],
    });
  });

  it('IDN: the lookup sends punycode and the result carries both forms', async () => {
    const out = await ok(up, { requests: [{ query: 'bücher.ai' }] });
    expect(shopCalls(up.sim)).toEqual(['lookup xn--bcher-kva.ai']);
    expect(out.results[0]!.results[0]).toMatchObject({
      domain: 'xn--bcher-kva.ai',
      domain_unicode: 'bücher.ai',
      url: `${up.sim.url}/en/domains/search?domain=xn--bcher-kva.ai`,
      checked_at: CHECKED_AT,
    });
    expect(out.results[0]!.results[0]!.registration_tiers[0]).toMatchObject({
      min_duration: 2,
      term: '2-10 years',
    });
  });
});

describe('groups of one call', () => {
  it('keep request order and echo ids, whatever finishes first', async () => {
    up.sim.setFaults([{ type: 'latency', ms: 150, match: 'slowgroup' }]);
    const out = await ok(up, {
      requests: [
        { id: 'slow', query: 'slowgroup.com' },
        { query: 'fastgroup.net' },
        { id: 'third', query: 'example.org' },
      ],
    });
    expect(out.results.map((g) => [g.id, g.query, g.results[0]?.domain])).toEqual([
      ['slow', 'slowgroup.com', 'slowgroup.com'],
      [null, 'fastgroup.net', 'fastgroup.net'],
      ['third', 'example.org', 'example.org'],
    ]);
  });

  it('5 groups share 2 in-flight operations: never more, and the wall time shows it', async () => {
    const L = 120;
    up.sim.setFaults([{ type: 'latency', ms: L }]);
    const requests = ['alpha', 'bravo', 'charlie', 'delta', 'echo'].map((k) => ({
      query: `${k}mark`,
      tlds: ['com'],
      max_results: 1,
    }));
    const res = await call(up, { requests });
    expect(res.error).toBeUndefined();
    const ops = res.diagnostics!.limiter.operations;
    expect(ops).toBe(5);
    expect(up.sim.requests()).toHaveLength(5);
    expect(res.diagnostics!.limiter.maxInFlight).toBe(2);
    // With 2 slots, 5 operations of ≥ L each need at least ceil(5/2) × L.
    expect(res.elapsedMs).toBeGreaterThanOrEqual(Math.ceil(ops / 2) * L - 5);
  });

  it('a stream holds its slot until it ends: 5 keyword groups still peak at 2', async () => {
    up.sim.setFaults([{ type: 'latency', ms: 40 }]);
    const requests = ['alpha', 'bravo', 'charlie', 'delta', 'echo'].map((k) => ({ query: `${k}mark` }));
    const res = await call(up, { requests });
    expect(res.diagnostics!.limiter).toMatchObject({ operations: 10, maxInFlight: 2 });
    expect(up.sim.requests().every((r) => r.op === 'suggest')).toBe(true);
  });
});
