import { describe, expect, it } from 'vitest';
import { eurPrices, suggestion } from './fixtures.test-helpers.js';
import { StreamJoiner, toAvailability } from './joiner.js';

const das = (fqdn: string, availability: string, premium = 0, reserved = 0) =>
  ({ event: 'das', data: { fqdn, availability, premium, reserved } }) as const;

describe('StreamJoiner', () => {
  it('joins bücher.ai with xn--bcher-kva.ai and buffers das/billing that arrive first', () => {
    const j = new StreamJoiner(['ai']);
    j.push(das('xn--bcher-kva.ai', 'available', 1));
    j.push({ event: 'billing', data: { fqdn: 'XN--BCHER-KVA.AI', prices: eurPrices() } });
    j.push({ event: 'suggestions', data: [suggestion('bücher.ai')] });
    const [c] = j.candidates();
    expect(c).toMatchObject({
      domain: 'xn--bcher-kva.ai',
      domain_unicode: 'bücher.ai',
      availability: 'available',
      premium: true,
      billingFailed: false,
    });
    expect(c?.prices).toMatchObject({ currency: 'EUR' });
    expect(j.candidates()).toHaveLength(1);
  });

  it('keeps first-seen suggestion order across pages and ignores repeats', () => {
    const j = new StreamJoiner();
    j.push({ event: 'suggestions', data: [suggestion('cedar.app'), suggestion('cedar.online')] });
    j.push({ event: 'done', data: null });
    expect(j.isComplete).toBe(true);
    j.startStream();
    expect(j.isComplete).toBe(false);
    j.push({ event: 'suggestions', data: [suggestion('cedar.online'), suggestion('cedar.io')] });
    expect(j.candidates().map((c) => c.domain)).toEqual(['cedar.app', 'cedar.online', 'cedar.io']);
  });

  it('drops suggestions outside the requested suffixes and invalid names', () => {
    const j = new StreamJoiner(['com', 'net']);
    j.push({
      event: 'suggestions',
      data: [
        suggestion('cedar.com'),
        suggestion('cedar.app'),
        suggestion('ce dar.net'),
        suggestion('cedar.net'),
      ],
    });
    expect(j.candidates().map((c) => c.domain)).toEqual(['cedar.com', 'cedar.net']);
    expect(j.droppedCount).toBe(2);
  });

  it('reports das_failed and availability "error" as unknown, never unavailable', () => {
    const j = new StreamJoiner();
    j.push({
      event: 'suggestions',
      data: [suggestion('a1.com'), suggestion('b2.com'), suggestion('c3.com')],
    });
    j.push({ event: 'das_failed', data: { fqdn: 'a1.com', availability: 'error' } });
    j.push(das('b2.com', 'error'));
    j.push(das('c3.com', 'maybe'));
    expect(j.candidates().map((c) => c.availability)).toEqual(['unknown', 'unknown', 'unknown']);
    expect(toAvailability('unavailable')).toBe('unavailable');
  });

  it('never lets a late das_failed replace a confirmed answer', () => {
    const j = new StreamJoiner();
    j.push({ event: 'suggestions', data: [suggestion('a1.com'), suggestion('b2.com')] });
    j.push(das('a1.com', 'unavailable'));
    j.push({ event: 'das_failed', data: { fqdn: 'a1.com', availability: 'error' } });
    j.push({ event: 'das_failed', data: { fqdn: 'b2.com', availability: 'error' } });
    j.push(das('b2.com', 'available'));
    expect(j.candidates().map((c) => c.availability)).toEqual(['unavailable', 'available']);
  });

  it('marks billing_failed without inventing a price, and a later billing wins', () => {
    const j = new StreamJoiner();
    j.push({ event: 'suggestions', data: [suggestion('a1.com'), suggestion('b2.com')] });
    j.push({ event: 'billing_failed', data: { fqdn: 'a1.com', prices: {} } });
    j.push({ event: 'billing_failed', data: { fqdn: 'b2.com', prices: {} } });
    j.push({ event: 'billing', data: { fqdn: 'b2.com', prices: eurPrices() } });
    const [a, b] = j.candidates();
    expect(a).toMatchObject({ prices: undefined, billingFailed: true });
    expect(b?.billingFailed).toBe(false);
    expect(b?.prices).toMatchObject({ currency: 'EUR' });
  });

  it('snapshot keeps complete candidates in order after a cut stream', () => {
    const j = new StreamJoiner();
    j.push({ event: 'suggest_meta', data: { tld_filter: ['com'], search_uuid: '72d9' } });
    j.push({
      event: 'pagination',
      data: { 'X-Total-Count': 911, page: 1, per_page: 5, next: 'https://s/?page=2' },
    });
    j.push({
      event: 'suggestions',
      data: [suggestion('a1.com'), suggestion('b2.com'), suggestion('c3.com')],
    });
    j.push(das('c3.com', 'unavailable'));
    j.push({ event: 'tick', data: null });
    j.push(das('a1.com', 'available'));
    const snap = j.snapshot();
    expect(snap).toMatchObject({ complete: false, pending: 1 });
    expect(snap.candidates.map((c) => c.domain)).toEqual(['a1.com', 'c3.com']);
    expect(j.pagination).toEqual({ pages: 1, next: 'https://s/?page=2' });
  });

  it('ignores events that name an invalid FQDN', () => {
    const j = new StreamJoiner();
    j.push(das('bad name.com', 'available'));
    j.push({ event: 'suggestions', data: [suggestion('bad name.com')] });
    expect(j.candidates()).toEqual([]);
  });
});
