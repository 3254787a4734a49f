/**
 * Per-domain result: only known schema fields are kept, and the external link
 * is built from the fixed shop origin, never from upstream data. The zod schemas here document
 * the skill's output (they become its JSON Schema).
 */
import { z } from 'zod';
import type { LookupResult } from '../../upstream/wire.js';
import type { Currency } from './input.js';
import { type CheckedCandidate, toAvailability } from './joiner.js';
import { canonicalDomain, displayName } from './names.js';
import { htmlToPlainText } from './plain-text.js';
import { mapQuote, PRICING_STATUSES, QuoteTaxSchema, QuoteTierSchema } from './quotes.js';

export const DomainResultSchema = z
  .object({
    domain: z.string().describe('Canonical ASCII (punycode) domain name.'),
    domain_unicode: z.string().describe('Unicode display form of the domain.'),
    availability: z
      .enum(['available', 'unavailable', 'unknown'])
      .describe('available; unavailable (in use); unknown (the check failed, never read as unavailable).'),
    premium: z.boolean().describe('True for a premium name.'),
    reserved: z.boolean().describe('True when the registry reserves the name.'),
    corporate: z.boolean().describe('True for a corporate (restricted-eligibility) extension.'),
    restrictions: z.string().nullable().describe('Registration restrictions as plain text, or null.'),
    currency: z.string().nullable().describe('Quote currency, or null when there is no usable quote.'),
    registration_tiers: z.array(QuoteTierSchema).describe('Registration (create) price tiers.'),
    renewal_tiers: z.array(QuoteTierSchema).describe('Renewal price tiers; never a copy of registration.'),
    taxes: z.array(QuoteTaxSchema).describe('Taxes applied to the quote; empty for untaxed quotes.'),
    pricing_status: z
      .enum(PRICING_STATUSES)
      .describe('priced, missing, failed, currency_mismatch (price unknown) or not_applicable.'),
    checked_at: z.string().describe('ISO 8601 time the check was made.'),
    url: z.string().describe('Link to the name in the shop, built from the fixed shop origin.'),
  })
  .describe('One checked domain.');

export type DomainResult = z.output<typeof DomainResultSchema>;

/** Fixed context of one group's mapping. */
export interface ResultContext {
  currency: Currency;
  /** ISO time of the check, passed in (pure code reads no clock). */
  checkedAt: string;
  /** The configured shop origin, e.g. "https://shop.example". */
  shopOrigin: string;
}

/** `${origin}/en/domains/search?domain=<ascii>`; only the origin of `shopOrigin` is used. */
export function shopUrl(shopOrigin: string, domain: string): string {
  const url = new URL('/en/domains/search', new URL(shopOrigin).origin);
  url.searchParams.set('domain', domain);
  return url.toString();
}

/** Maps a complete candidate; a candidate without availability is reported as unknown. */
export function mapResult(candidate: CheckedCandidate, ctx: ResultContext): DomainResult {
  const availability = candidate.availability ?? 'unknown';
  const quote = mapQuote(candidate.prices, {
    currency: ctx.currency,
    billingFailed: candidate.billingFailed,
    available: availability === 'available',
  });
  return {
    domain: candidate.domain,
    domain_unicode: candidate.domain_unicode,
    availability,
    premium: candidate.premium || quote.premium_pricing,
    reserved: candidate.reserved,
    corporate: candidate.corporate,
    restrictions: htmlToPlainText(candidate.restriction),
    currency: quote.currency,
    registration_tiers: quote.registration_tiers,
    renewal_tiers: quote.renewal_tiers,
    taxes: quote.taxes,
    pricing_status: quote.pricing_status,
    checked_at: ctx.checkedAt,
    url: shopUrl(ctx.shopOrigin, candidate.domain),
  };
}

/**
 * Turns an exact lookup answer into a candidate. Returns undefined when the answer's FQDN is
 * not the name asked for (the wire notes call that malformed).
 */
export function candidateFromLookup(asked: string, lookup: LookupResult): CheckedCandidate | undefined {
  const domain = canonicalDomain(lookup.fqdn);
  if (domain === undefined || domain !== canonicalDomain(asked)) return undefined;
  return {
    domain,
    domain_unicode: displayName(domain),
    availability: toAvailability(lookup.availability),
    premium: (lookup.premium ?? 0) > 0,
    reserved: (lookup.reserved ?? 0) > 0,
    corporate: false,
    restriction: null,
    prices: lookup.prices ?? {},
    // Unreadable pricing (e.g. an overflowing amount) is a failed quote, never a guess.
    billingFailed: lookup.prices === null,
  };
}
