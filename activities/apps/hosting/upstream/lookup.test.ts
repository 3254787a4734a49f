import { describe, expect, it } from 'vitest';
import { isProxyEligible, ShopError } from './index.js';
import { useShopSimulator } from './sim.test-helpers.js';
import { BROWSER_USER_AGENT } from './transport.js';
import { hasPricing } from './wire.js';

const ctx = useShopSimulator();
const EUR_DE = { currency: 'EUR', country: 'DE' };
const USD_US = { currency: 'USD', country: 'US' };

async function failure(p: Promise<unknown>): Promise<ShopError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ShopError);
  return err as ShopError;
}

describe('lookup request', () => {
  it('sends browser headers, the shop Referer, Accept json, no Origin, and exactly the spec params', async () => {
    await ctx.shop.lookup('Example.COM.', EUR_DE);
    const [rec] = ctx.sim.requests();
    expect(rec?.path).toBe('/api/v5/suggest/lookup');
    expect(rec?.query).toBe('search=example.com&currency=EUR&country=DE&grid=A');
    expect(rec?.headers['user-agent']).toBe(BROWSER_USER_AGENT);
    expect(rec?.headers.referer).toBe(`${ctx.sim.url}/`);
    expect(rec?.headers.accept).toBe('application/json');
    expect(rec?.headers).not.toHaveProperty('origin');
    expect(rec?.status).toBe(200);
  });

  it('rejects a name with a space, a bare label and a bad currency locally, without any request', async () => {
    for (const [name, quote] of [
      ['my ctx.shop.com', EUR_DE],
      ['shop', EUR_DE],
      ['ctx.shop.com', { currency: 'EURO', country: 'DE' }],
      ['ctx.shop.com', { currency: 'EUR', country: 'DEU' }],
    ] as const) {
      const err = await failure(ctx.shop.lookup(name, quote));
      expect(err.kind).toBe('invalid');
      expect(err.code).toBe('INVALID_PARAMETER');
      expect(isProxyEligible(err)).toBe(false);
    }
    expect(ctx.sim.requests()).toEqual([]);
  });
});

describe('lookup answers', () => {
  it('a taken name is unavailable with empty prices', async () => {
    expect(await ctx.shop.lookup('example.com', EUR_DE)).toEqual({
      fqdn: 'example.com',
      availability: 'unavailable',
      premium: 0,
      prices: {},
    });
  });

  it('DE/EUR quotes carry a 19% VAT entry and separate create and renew tiers', async () => {
    const r = await ctx.shop.lookup('skillflow-demo.com', EUR_DE);
    expect(r.availability).toBe('available');
    if (!hasPricing(r.prices)) throw new Error('expected pricing');
    expect(r.prices.currency).toBe('EUR');
    expect(r.prices.grid).toBe('A');
    expect(r.prices.taxes).toEqual([{ name: 'vat', name_label: 'VAT', type: 'service', rate: 19 }]);
    expect(r.prices.products.map((p) => [p.name, p.process])).toEqual([
      ['.com', 'create'],
      ['.com', 'renew'],
    ]);
    expect(r.prices.products[0]?.prices[0]).toMatchObject({
      min_duration: 1,
      max_duration: 10,
      price_before_taxes: 10.99,
      price_after_taxes: 13.08,
    });
    expect(r.prices.products[1]?.prices[0]).toMatchObject({
      price_before_taxes: 13.99,
      price_after_taxes: 16.65,
    });
  });

  it('US/USD quotes honour the currency and have no taxes', async () => {
    const r = await ctx.shop.lookup('skillflow-demo.com', USD_US);
    if (!hasPricing(r.prices)) throw new Error('expected pricing');
    expect(r.prices.currency).toBe('USD');
    expect(r.prices.taxes).toEqual([]);
    expect(r.prices.products[0]?.prices[0]).toMatchObject({
      price_before_taxes: 11.87,
      price_after_taxes: 11.87,
    });
  });

  it('a premium name: product named after the whole domain, normal price above the discounted one', async () => {
    const r = await ctx.shop.lookup('cedar.online', EUR_DE);
    expect(r.premium).toBe(1);
    if (!hasPricing(r.prices)) throw new Error('expected pricing');
    const create = r.prices.products.find((p) => p.process === 'create');
    expect(create?.name).toBe('cedar.online');
    expect(create?.prices[0]).toMatchObject({
      type: 'premium',
      discount: true,
      price_before_taxes: 149,
      normal_price_before_taxes: 199,
    });
  });

  it('an IDN answers with its punycode fqdn, and .ai tiers start at two years', async () => {
    const r = await ctx.shop.lookup('bücher.ai', EUR_DE);
    expect(r.fqdn).toBe('xn--bcher-kva.ai');
    expect(ctx.sim.requests()[0]?.params.search).toEqual(['xn--bcher-kva.ai']);
    if (!hasPricing(r.prices)) throw new Error('expected pricing');
    expect(r.prices.products.map((p) => p.prices[0]?.min_duration)).toEqual([2, 2]);
  });

  it('an unsupported suffix is HTTP 200 with availability error, not a failure', async () => {
    expect(await ctx.shop.lookup('x.invalid', EUR_DE)).toEqual({
      fqdn: 'x.invalid',
      availability: 'error',
      premium: 0,
      prices: {},
    });
  });

  it('a wrong-currency answer is returned as sent (the caller keeps it unknown)', async () => {
    const r = await ctx.shop.lookup('fault-currency.com', EUR_DE);
    expect(hasPricing(r.prices) && r.prices.currency).toBe('USD');
  });
});

describe('lookup failures', () => {
  it.each([
    ['fault-403.com', 'forbidden', 403, 'UPSTREAM_UNAVAILABLE', true],
    ['fault-400.com', 'bad_request', 400, 'UPSTREAM_UNAVAILABLE', false],
    ['fault-500.com', 'server', 500, 'UPSTREAM_UNAVAILABLE', true],
    ['fault-502.com', 'server', 502, 'UPSTREAM_UNAVAILABLE', true],
    ['fault-503.com', 'server', 503, 'UPSTREAM_UNAVAILABLE', true],
    ['fault-429.com', 'rate_limited', 429, 'UPSTREAM_RATE_LIMITED', false],
  ] as const)('%s → %s', async (name, kind, status, code, eligible) => {
    const err = await failure(ctx.shop.lookup(name, EUR_DE));
    expect({ kind: err.kind, status: err.httpStatus, code: err.code, via: err.via }).toEqual({
      kind,
      status,
      code,
      via: 'direct',
    });
    expect(err.details).toEqual({ provider: 'shop', operation: 'lookup', kind, via: 'direct', status });
    expect(isProxyEligible(err)).toBe(eligible);
  });

  it('429 carries Retry-After in seconds and as an HTTP-date', async () => {
    expect((await failure(ctx.shop.lookup('fault-429.com', EUR_DE))).retryAfterMs).toBe(7000);
    const dated = await failure(ctx.shop.lookup('fault-429-date.com', EUR_DE));
    expect(dated.retryAfterMs).toBeGreaterThan(25_000);
    expect(dated.retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  it('a body that is not JSON, and an answer for another name, are malformed', async () => {
    for (const name of ['fault-malformed.com', 'fault-fqdn.com']) {
      const err = await failure(ctx.shop.lookup(name, EUR_DE));
      expect([err.kind, err.code, isProxyEligible(err)]).toEqual(['malformed', 'UPSTREAM_MALFORMED', true]);
    }
  });

  it('a stalled answer times out after the configured limit', async () => {
    const started = Date.now();
    const err = await failure(ctx.shop.lookup('fault-stall.com', EUR_DE, { timeoutMs: 300 }));
    expect(err.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(isProxyEligible(err)).toBe(true);
  });

  it('a dropped connection is a network failure', async () => {
    const err = await failure(ctx.shop.lookup('fault-drop.com', EUR_DE));
    expect(err.kind).toBe('network');
    expect(isProxyEligible(err)).toBe(true);
  });

  it('server rules: fail N times then succeed, each call making exactly one request', async () => {
    ctx.sim.setFaults([{ op: 'lookup', match: 'retry-me', type: 'status', status: 503, times: 2 }]);
    expect((await failure(ctx.shop.lookup('retry-me.com', EUR_DE))).kind).toBe('server');
    expect((await failure(ctx.shop.lookup('retry-me.com', EUR_DE))).kind).toBe('server');
    expect((await ctx.shop.lookup('retry-me.com', EUR_DE)).availability).toBe('available');
    expect(ctx.sim.requests().map((r) => r.status)).toEqual([503, 503, 200]);
  });

  it('the magic name fault-flaky-1 fails once, then answers', async () => {
    expect((await failure(ctx.shop.lookup('fault-flaky-1.com', EUR_DE))).httpStatus).toBe(503);
    expect((await ctx.shop.lookup('fault-flaky-1.com', EUR_DE)).fqdn).toBe('fault-flaky-1.com');
  });

  it('an abort stops a slow lookup promptly with the signal reason', async () => {
    const ctrl = new AbortController();
    const reason = new Error('deadline');
    setTimeout(() => ctrl.abort(reason), 100);
    const started = Date.now();
    await expect(ctx.shop.lookup('fault-slow.com', EUR_DE, { signal: ctrl.signal })).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
