/**
 * Maps the upstream pricing object to the skill's quote fields. Tiers are preserved
 * as returned; registration (`create`) and renewal (`renew`) stay separate, so a registration
 * price is never shown as the renewal price. Nothing is invented: no currency conversion, no
 * per-year arithmetic, and a non-finite or negative value drops its tier.
 */
import { z } from 'zod';
import { hasPricing, type PriceTier, type Prices, type Tax } from '../../upstream/wire.js';
import type { Currency } from './input.js';

const amount = z.number().finite().nonnegative();

export const QuoteTierSchema = z
  .object({
    term: z
      .string()
      .describe('Duration range label, e.g. "1-10 years"; a tier starting at 2 years never reads "1 year".'),
    duration_unit: z.string().describe('Unit of the durations as returned ("y" = years, "m" = months).'),
    min_duration: z.number().int().describe('Shortest term this tier sells, in duration_unit.'),
    max_duration: z.number().int().describe('Longest term this tier sells, in duration_unit.'),
    price_before_taxes: amount.describe('Price per duration_unit before taxes, in the quote currency.'),
    price_after_taxes: amount.describe('Price per duration_unit after taxes, in the quote currency.'),
    discount: z.boolean().describe('True when this price is discounted.'),
    normal_price_before_taxes: amount.optional().describe('Undiscounted price before taxes, when given.'),
    normal_price_after_taxes: amount.optional().describe('Undiscounted price after taxes, when given.'),
    type: z.string().optional().describe('Tier type as returned, e.g. "premium".'),
    phase: z.string().optional().describe('Sales phase the tier applies to, e.g. "golive".'),
    features: z.array(z.string()).optional().describe('Feature tokens as returned (plain tokens only).'),
  })
  .describe('One price tier, preserved as returned. Amounts are indicative, not checkout guarantees.');

export const QuoteTaxSchema = z
  .object({
    name: z.string().describe('Tax identifier, e.g. "vat".'),
    label: z.string().optional().describe('Display label, e.g. "VAT".'),
    type: z.string().optional().describe('Tax type as returned.'),
    rate: amount.describe('Rate in percent, e.g. 19.'),
  })
  .describe('A tax included in price_after_taxes.');

/** One price tier as returned, plus an honest `term` label for its duration range. */
export type QuoteTier = z.output<typeof QuoteTierSchema>;
/** A tax of a quote; `rate` is a percentage, e.g. 19 for 19 % VAT. */
export type QuoteTax = z.output<typeof QuoteTaxSchema>;

/**
 * - `priced`: at least one tier in the requested currency;
 * - `missing`: no usable quote arrived for a name that may be registrable;
 * - `failed`: the upstream reported that pricing failed (`billing_failed`);
 * - `currency_mismatch`: quoted in another currency, so the price stays unknown;
 * - `not_applicable`: the name is in use or unknown and no quote came with it.
 */
export const PRICING_STATUSES = [
  'priced',
  'missing',
  'failed',
  'currency_mismatch',
  'not_applicable',
] as const;
export type PricingStatus = (typeof PRICING_STATUSES)[number];

export interface Quote {
  /** The quote currency; null when there is no usable quote. */
  currency: string | null;
  registration_tiers: QuoteTier[];
  renewal_tiers: QuoteTier[];
  taxes: QuoteTax[];
  /** True when a tier is typed `premium`. */
  premium_pricing: boolean;
  pricing_status: PricingStatus;
}

const SAFE_TOKEN = /^[A-Za-z0-9_.-]{1,40}$/u;
const MAX_FEATURES = 10;
const UNIT_NAMES: Record<string, [string, string]> = { y: ['year', 'years'], m: ['month', 'months'] };

const isAmount = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;

/** The duration label: "1 year", "2-10 years"; a range starting at 2 never reads as one year. */
export function termLabel(unit: string, min: number, max: number): string {
  const [one, many] = UNIT_NAMES[unit] ?? [unit, unit];
  if (min === max) return `${min} ${min === 1 ? one : many}`;
  return `${min}-${max} ${many}`;
}

/** Maps one tier, or returns undefined when a value is missing, non-finite or inconsistent. */
export function mapTier(tier: PriceTier): QuoteTier | undefined {
  const { duration_unit: unit, min_duration: min, max_duration: max } = tier;
  if (!Number.isInteger(min) || !Number.isInteger(max) || min < 1 || max < min) return undefined;
  if (!isAmount(tier.price_before_taxes) || !isAmount(tier.price_after_taxes)) return undefined;
  if (!SAFE_TOKEN.test(unit)) return undefined;
  const out: QuoteTier = {
    term: termLabel(unit, min, max),
    duration_unit: unit,
    min_duration: min,
    max_duration: max,
    price_before_taxes: tier.price_before_taxes,
    price_after_taxes: tier.price_after_taxes,
    discount: tier.discount === true,
  };
  if (isAmount(tier.normal_price_before_taxes))
    out.normal_price_before_taxes = tier.normal_price_before_taxes;
  if (isAmount(tier.normal_price_after_taxes)) out.normal_price_after_taxes = tier.normal_price_after_taxes;
  if (tier.type !== undefined && SAFE_TOKEN.test(tier.type)) out.type = tier.type;
  const phase = tier.options?.['phase'];
  if (typeof phase === 'string' && SAFE_TOKEN.test(phase)) out.phase = phase;
  const features = (tier.features ?? []).filter(
    (f): f is string => typeof f === 'string' && SAFE_TOKEN.test(f),
  );
  if (features.length > 0) out.features = features.slice(0, MAX_FEATURES);
  return out;
}

function mapTax(tax: Tax): QuoteTax | undefined {
  if (!isAmount(tax.rate) || !SAFE_TOKEN.test(tax.name)) return undefined;
  const out: QuoteTax = { name: tax.name, rate: tax.rate };
  if (tax.name_label !== undefined) out.label = tax.name_label.slice(0, 40);
  if (tax.type !== undefined && SAFE_TOKEN.test(tax.type)) out.type = tax.type;
  return out;
}

/** A quote with no tiers and the given status. */
export function emptyQuote(status: PricingStatus, currency: string | null = null): Quote {
  return {
    currency,
    registration_tiers: [],
    renewal_tiers: [],
    taxes: [],
    premium_pricing: false,
    pricing_status: status,
  };
}

/** What is known about a name's pricing when its quote is mapped. */
export interface QuoteContext {
  /** The currency the group asked for. */
  currency: Currency;
  /** True when the upstream said pricing failed (`billing_failed`). */
  billingFailed: boolean;
  /** True when the name is available (a missing quote then reads `missing`, not `not_applicable`). */
  available: boolean;
}

/**
 * Maps a pricing object to a {@link Quote}. `products[].name` is ignored: prices attach to the
 * FQDN they arrived with, never to a product name.
 */
export function mapQuote(prices: Prices | undefined, ctx: QuoteContext): Quote {
  if (prices === undefined || !hasPricing(prices)) {
    if (ctx.billingFailed) return emptyQuote('failed');
    return emptyQuote(ctx.available ? 'missing' : 'not_applicable');
  }
  const currency = prices.currency.trim().toUpperCase();
  if (currency !== ctx.currency) return emptyQuote('currency_mismatch');
  const registration: QuoteTier[] = [];
  const renewal: QuoteTier[] = [];
  for (const product of prices.products) {
    const target =
      product.process === 'create' ? registration : product.process === 'renew' ? renewal : undefined;
    if (!target) continue;
    for (const tier of product.prices) {
      const mapped = mapTier(tier);
      if (mapped) target.push(mapped);
    }
  }
  if (registration.length === 0 && renewal.length === 0) {
    return emptyQuote(ctx.billingFailed ? 'failed' : ctx.available ? 'missing' : 'not_applicable');
  }
  return {
    currency,
    registration_tiers: registration,
    renewal_tiers: renewal,
    taxes: prices.taxes.flatMap((t) => mapTax(t) ?? []),
    premium_pricing: [...registration, ...renewal].some((t) => t.type === 'premium'),
    pricing_status: 'priced',
  };
}
