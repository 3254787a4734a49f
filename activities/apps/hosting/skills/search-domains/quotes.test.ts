import { describe, expect, it } from 'vitest';
import { COM_TIER, eurPrices } from './fixtures.test-helpers.js';
import { mapQuote, mapTier, termLabel } from './quotes.js';

const EUR = { currency: 'EUR', billingFailed: false, available: true } as const;

describe('mapQuote', () => {
  it('keeps registration and renewal tiers separately, as returned, with taxes', () => {
    const quote = mapQuote(eurPrices(), EUR);
    expect(quote).toEqual({
      currency: 'EUR',
      registration_tiers: [
        {
          term: '1-10 years',
          duration_unit: 'y',
          min_duration: 1,
          max_duration: 10,
          price_before_taxes: 11,
          price_after_taxes: 13.09,
          discount: false,
        },
      ],
      renewal_tiers: [
        {
          term: '1-10 years',
          duration_unit: 'y',
          min_duration: 1,
          max_duration: 10,
          price_before_taxes: 15,
          price_after_taxes: 17.85,
          discount: false,
        },
      ],
      taxes: [{ name: 'vat', label: 'VAT', type: 'service', rate: 19 }],
      premium_pricing: false,
      pricing_status: 'priced',
    });
  });

  it('never shows a registration price as the renewal price when renew is missing', () => {
    const prices = eurPrices({ renew: [] });
    const quote = mapQuote(prices, EUR);
    expect(quote.registration_tiers).toHaveLength(1);
    expect(quote.renewal_tiers).toEqual([]);
  });

  it('labels a min_duration 2 tier "2-10 years", never one year', () => {
    const quote = mapQuote(
      eurPrices({ create: [{ ...COM_TIER, min_duration: 2, price_before_taxes: 140 }] }),
      EUR,
    );
    expect(quote.registration_tiers[0]).toMatchObject({
      term: '2-10 years',
      min_duration: 2,
      max_duration: 10,
    });
    expect(termLabel('y', 1, 1)).toBe('1 year');
    expect(termLabel('y', 2, 2)).toBe('2 years');
    expect(termLabel('m', 1, 12)).toBe('1-12 months');
  });

  it('keeps USD prices on a EUR request unknown (no tiers, currency_mismatch)', () => {
    const quote = mapQuote(eurPrices({ currency: 'USD' }), EUR);
    expect(quote).toEqual({
      currency: null,
      registration_tiers: [],
      renewal_tiers: [],
      taxes: [],
      premium_pricing: false,
      pricing_status: 'currency_mismatch',
    });
  });

  it('keeps premium normal prices and type, and ignores the product name', () => {
    const premiumTier = {
      ...COM_TIER,
      price_before_taxes: 2500,
      price_after_taxes: 2975,
      discount: true,
      normal_price_before_taxes: 3000,
      normal_price_after_taxes: 3570,
      type: 'premium',
      options: { phase: 'golive', script: '<x>' },
      features: ['dnssec', '<b>bad</b>', 42],
    };
    const quote = mapQuote(eurPrices({ create: [premiumTier], name: 'cedar.online' }), EUR);
    expect(quote.premium_pricing).toBe(true);
    expect(quote.registration_tiers[0]).toEqual({
      term: '1-10 years',
      duration_unit: 'y',
      min_duration: 1,
      max_duration: 10,
      price_before_taxes: 2500,
      price_after_taxes: 2975,
      discount: true,
      normal_price_before_taxes: 3000,
      normal_price_after_taxes: 3570,
      type: 'premium',
      phase: 'golive',
      features: ['dnssec'],
    });
  });

  it('reports missing, failed and not_applicable without inventing prices', () => {
    expect(mapQuote({}, EUR).pricing_status).toBe('missing');
    expect(mapQuote(undefined, { ...EUR, billingFailed: true }).pricing_status).toBe('failed');
    expect(mapQuote({}, { ...EUR, available: false }).pricing_status).toBe('not_applicable');
    expect(mapQuote(eurPrices({ create: [], renew: [] }), EUR)).toMatchObject({
      pricing_status: 'missing',
      registration_tiers: [],
    });
  });
});

describe('mapTier guards', () => {
  it('drops tiers with non-finite, negative or inconsistent values', () => {
    expect(mapTier({ ...COM_TIER, price_after_taxes: Number.NaN })).toBeUndefined();
    expect(mapTier({ ...COM_TIER, price_before_taxes: Number.POSITIVE_INFINITY })).toBeUndefined();
    expect(mapTier({ ...COM_TIER, price_before_taxes: -1 })).toBeUndefined();
    expect(mapTier({ ...COM_TIER, min_duration: 5, max_duration: 2 })).toBeUndefined();
    expect(mapTier({ ...COM_TIER, min_duration: 0 })).toBeUndefined();
    expect(mapTier({ ...COM_TIER, normal_price_after_taxes: Number.NaN })).not.toHaveProperty(
      'normal_price_after_taxes',
    );
  });
});
