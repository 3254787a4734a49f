import { describe, expect, it } from 'vitest';
import { ShopError, type ShopErrorKind } from '../../upstream/index.js';
import { eurPrices, candidate } from './fixtures.test-helpers.js';
import { mergeEvidence, nextStep, type AttemptState } from './fallback.js';

const err = (kind: ShopErrorKind, extra: { retryAfterMs?: number; via?: 'direct' | 'proxy' } = {}) =>
  new ShopError({
    kind,
    via: extra.via ?? 'direct',
    operation: 'lookup',
    message: 'x',
    retryAfterMs: extra.retryAfterMs,
  });

const state: AttemptState = {
  attempts: 1,
  maxAttempts: 3,
  proxyUsed: false,
  rateLimitWaited: false,
  proxyEnabled: true,
  retryTransient: true,
  remainingMs: 30_000,
};

describe('nextStep (the proxy and retry policy)', () => {
  it.each(['timeout', 'network', 'forbidden', 'server', 'malformed', 'incomplete'] as const)(
    'a direct %s failure gets the one proxy attempt',
    (kind) => expect(nextStep(err(kind), state)).toEqual({ kind: 'proxy' }),
  );

  it('never a second proxy attempt; a transient failure then retries directly (lookups only)', () => {
    expect(nextStep(err('server', { via: 'proxy' }), { ...state, attempts: 2, proxyUsed: true })).toEqual({
      kind: 'retry',
      ms: 200,
    });
    expect(nextStep(err('forbidden', { via: 'proxy' }), { ...state, attempts: 2, proxyUsed: true })).toEqual({
      kind: 'give_up',
    });
    expect(nextStep(err('server'), { ...state, retryTransient: false, proxyEnabled: false })).toEqual({
      kind: 'give_up',
    });
  });

  it('without a proxy a transient lookup failure retries directly; attempts stay bounded', () => {
    expect(nextStep(err('server'), { ...state, proxyEnabled: false })).toEqual({ kind: 'retry', ms: 200 });
    expect(nextStep(err('server'), { ...state, proxyEnabled: false, attempts: 3 })).toEqual({
      kind: 'give_up',
    });
  });

  it('429 never goes through the proxy: one wait for Retry-After when it fits the deadline', () => {
    expect(nextStep(err('rate_limited', { retryAfterMs: 7000 }), state)).toEqual({ kind: 'wait', ms: 7000 });
    expect(nextStep(err('rate_limited', { retryAfterMs: 7000 }), { ...state, remainingMs: 5000 })).toEqual({
      kind: 'give_up',
    });
    expect(nextStep(err('rate_limited', { retryAfterMs: 10 }), { ...state, rateLimitWaited: true })).toEqual({
      kind: 'give_up',
    });
    expect(nextStep(err('rate_limited'), state)).toEqual({ kind: 'give_up' });
  });

  it('local validation, 400 and non-shop errors never retry', () => {
    expect(nextStep(err('invalid'), state)).toEqual({ kind: 'give_up' });
    expect(nextStep(err('bad_request'), state)).toEqual({ kind: 'give_up' });
    expect(nextStep(new Error('bug'), state)).toEqual({ kind: 'give_up' });
  });
});

describe('mergeEvidence', () => {
  it('proxy evidence never replaces a confirmed status with unknown', () => {
    const direct = [
      candidate('a.com', { availability: 'available' }),
      candidate('b.com', { availability: 'unavailable' }),
    ];
    const proxy = [
      candidate('a.com', { availability: 'unknown' }),
      candidate('b.com', { availability: 'unknown' }),
    ];
    expect(mergeEvidence([direct, proxy]).map((c) => c.availability)).toEqual(['available', 'unavailable']);
  });

  it('proxy evidence adds no price to a confirmed answer, but completes unknown and pending names', () => {
    const direct = [
      candidate('a.com', { availability: 'available', prices: undefined }),
      candidate('b.com', { availability: 'unknown' }),
      candidate('c.com', { availability: undefined }),
    ];
    const proxy = [
      candidate('a.com', { prices: eurPrices() }),
      candidate('b.com', { prices: eurPrices() }),
      candidate('c.com', { availability: 'unavailable' }),
      candidate('d.com'),
    ];
    const merged = mergeEvidence([direct, proxy]);
    expect(merged.map((c) => [c.domain, c.availability, c.prices !== undefined])).toEqual([
      ['a.com', 'available', false],
      ['b.com', 'available', true],
      ['c.com', 'unavailable', false],
      ['d.com', 'available', false],
    ]);
  });
});
