import { describe, expect, it } from 'vitest';
import { isProxyEligible, kindForStatus, parseRetryAfter, ShopError, type ShopErrorKind } from './errors.js';
import { canonicalFqdn, sameFqdn, suffixParam } from './fqdn.js';

const err = (kind: ShopErrorKind, via: 'direct' | 'proxy' = 'direct') =>
  new ShopError({ kind, via, operation: 'lookup', message: 'x' });

describe('isProxyEligible', () => {
  it.each([
    ['timeout', true],
    ['network', true],
    ['forbidden', true],
    ['server', true],
    ['malformed', true],
    ['incomplete', true],
    ['rate_limited', false],
    ['bad_request', false],
    ['invalid', false],
    ['proxy', false],
  ] as const)('direct %s → %s', (kind, eligible) => {
    expect(isProxyEligible(err(kind))).toBe(eligible);
  });

  it('a failure that already went through the proxy never earns a second proxy attempt', () => {
    expect(isProxyEligible(err('timeout', 'proxy'))).toBe(false);
  });

  it('non-shop errors (aborts included) are not eligible', () => {
    expect(isProxyEligible(new DOMException('aborted', 'AbortError'))).toBe(false);
    expect(isProxyEligible(new Error('x'))).toBe(false);
    expect(isProxyEligible(undefined)).toBe(false);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  it('reads delta seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(['3'], now)).toBe(3000);
  });
  it('reads an HTTP-date relative to now, clamping the past to 0', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0);
  });
  it('ignores absent and garbage values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
  });
});

describe('status classification and catalogue codes', () => {
  it('maps statuses to kinds', () => {
    expect([400, 403, 404, 407, 429, 500, 503].map(kindForStatus)).toEqual([
      'bad_request',
      'forbidden',
      'bad_request',
      'proxy',
      'rate_limited',
      'server',
      'server',
    ]);
  });
  it('maps kinds to catalogue codes with client-safe details', () => {
    const e = new ShopError({
      kind: 'rate_limited',
      via: 'direct',
      operation: 'suggest',
      message: 'm',
      status: 429,
      retryAfterMs: 5000,
    });
    expect([e.code, e.status, e.retryAfterMs]).toEqual(['UPSTREAM_RATE_LIMITED', 429, 5000]);
    expect(e.details).toEqual({
      provider: 'shop',
      operation: 'suggest',
      kind: 'rate_limited',
      via: 'direct',
      status: 429,
    });
    expect(err('incomplete').code).toBe('UPSTREAM_MALFORMED');
    expect(err('invalid').code).toBe('INVALID_PARAMETER');
  });
});

describe('canonical names', () => {
  it('joins IDN spellings, case and trailing dot', () => {
    expect(canonicalFqdn('Bücher.AI.')).toBe('xn--bcher-kva.ai');
    expect(sameFqdn('bücher.ai', 'XN--BCHER-KVA.AI')).toBe(true);
    expect(sameFqdn('cedar.com', 'cedar.net')).toBe(false);
  });
  it('rejects spaces, empty labels and bad hyphens', () => {
    expect(['my shop.com', 'a..com', '-a.com', '', '.'].map(canonicalFqdn)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
  it('accepts one suffix only', () => {
    expect(suffixParam('.COM')).toBe('com');
    expect(suffixParam('co.uk')).toBe('co.uk');
    expect(suffixParam('com,net')).toBeUndefined();
  });
});
