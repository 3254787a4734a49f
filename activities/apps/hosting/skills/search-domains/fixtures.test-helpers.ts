/**
 * Shared test values taken from upstream-wire-notes.md. Not a test file itself (no `.test.`
 * suffix before `.ts`), imported by the co-located tests.
 */
import { PricesSchema, type PriceTier, type Prices, type Suggestion } from '../../upstream/wire.js';
import type { CheckedCandidate } from './joiner.js';
import type { DomainResult } from './result.js';

/** The tier from the wire notes: .com, 1-10 years, 11.00 / 13.09 EUR. */
export const COM_TIER: PriceTier = {
  duration_unit: 'y',
  min_duration: 1,
  max_duration: 10,
  price_before_taxes: 11.0,
  price_after_taxes: 13.09,
  discount: false,
};

/** A pricing object as the shop sends it, parsed through the wire schema. */
export function eurPrices(
  overrides: { create?: PriceTier[]; renew?: PriceTier[]; currency?: string; name?: string } = {},
): Prices {
  const name = overrides.name ?? '.com';
  return PricesSchema.parse({
    grid: 'A',
    currency: overrides.currency ?? 'EUR',
    taxes: [{ name: 'vat', name_label: 'VAT', type: 'service', rate: 19.0 }],
    products: [
      { name, status: 'available', process: 'create', phases: [], prices: overrides.create ?? [COM_TIER] },
      {
        name,
        status: 'available',
        process: 'renew',
        phases: [],
        prices: overrides.renew ?? [{ ...COM_TIER, price_before_taxes: 15.0, price_after_taxes: 17.85 }],
      },
    ],
  });
}

/** A suggestion as the stream sends it. */
export function suggestion(fqdn: string, extra: Partial<Suggestion> = {}): Suggestion {
  const [domain = '', ...rest] = fqdn.split('.');
  return {
    fqdn,
    domain,
    tld: rest.join('.'),
    corporate: false,
    allow_lang: true,
    phase: 'golive',
    provided: false,
    categories: ['gTLD'],
    restriction: null,
    ...extra,
  };
}

/** A checked candidate with sensible defaults. */
export function candidate(domain: string, extra: Partial<CheckedCandidate> = {}): CheckedCandidate {
  return {
    domain,
    domain_unicode: domain,
    availability: 'available',
    premium: false,
    reserved: false,
    corporate: false,
    restriction: null,
    prices: undefined,
    billingFailed: false,
    ...extra,
  };
}

/** A mapped result with sensible defaults (only selection-relevant fields vary in tests). */
export function result(domain: string, availability: DomainResult['availability']): DomainResult {
  return {
    domain,
    domain_unicode: domain,
    availability,
    premium: false,
    reserved: false,
    corporate: false,
    restrictions: null,
    currency: null,
    registration_tiers: [],
    renewal_tiers: [],
    taxes: [],
    pricing_status: availability === 'available' ? 'missing' : 'not_applicable',
    checked_at: '2025-01-01T00:00:00.000Z',
    url: `https://shop.example/en/domains/search?domain=${domain}`,
  };
}

/** The domains of a result list, in order. */
export function domains(rs: readonly { domain: string }[]): string[] {
  return rs.map((r) => r.domain);
}
