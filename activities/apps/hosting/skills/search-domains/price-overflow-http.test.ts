/**
 * A price amount that does not parse to a finite number (the shop's `1e999`, which JSON.parse
 * reads as Infinity) makes that quote unusable, nothing more: availability is kept, there is no
 * proxy attempt and no retry, and the answer stays strict JSON.
 */
import { describe, expect, it } from 'vitest';
import { call, shopCalls, useUpstreams } from './orchestration.test-helpers.js';

const up = useUpstreams();

function strictJson(value: unknown): void {
  const text = JSON.stringify(value);
  expect(text).not.toMatch(/Infinity|NaN|1e999/);
  expect(JSON.parse(text)).toEqual(value);
}

describe('price values that are not numbers', () => {
  it('exact lookup: the name stays available with unknown (failed) pricing, in one request', async () => {
    const res = await call(up, { requests: [{ query: 'fault-price.com' }] });
    expect(shopCalls(up.sim)).toEqual(['lookup fault-price.com']);
    expect(up.proxy.log()).toEqual([]);
    const group = res.output!.results[0]!;
    expect(group).toMatchObject({ error: null, partial: false });
    expect(group.results[0]).toMatchObject({
      domain: 'fault-price.com',
      availability: 'available',
      pricing_status: 'failed',
      registration_tiers: [],
      renewal_tiers: [],
    });
    strictJson(res.output);
  });

  it('suggestion stream: billing events with such amounts leave pricing unknown; the stream completes', async () => {
    const res = await call(up, { requests: [{ query: 'fault-price', tlds: ['com'], max_results: 3 }] });
    expect(up.proxy.log()).toEqual([]);
    // One exact lookup and one page: no proxy attempt, no retry.
    expect(shopCalls(up.sim)).toEqual(['lookup fault-price.com', 'suggest fault-price|com|1']);
    const group = res.output!.results[0]!;
    expect(group).toMatchObject({ error: null, partial: false });
    expect(group.results.map((r) => [r.domain, r.availability, r.pricing_status])).toEqual([
      ['fault-price.com', 'available', 'failed'],
      ['getfault-price.com', 'available', 'failed'],
      ['fault-priceapp.com', 'available', 'failed'],
    ]);
    strictJson(res.output);
  });
});
