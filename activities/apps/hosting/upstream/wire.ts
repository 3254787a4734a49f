/**
 * Wire types of the upstream shop (upstream-wire-notes.md).
 * Parsed with zod at the edge. Unknown fields are stripped (retain only known
 * schema fields). The shop is not a supported contract, so anything that does not parse is
 * "malformed" and may trigger the one proxy attempt.
 */
import { z } from 'zod';

/** A finite number: NaN and Infinity never pass (they must never reach JSON output). */
const finite = z.number().finite();

export const PriceTierSchema = z.object({
  duration_unit: z.string(),
  min_duration: finite,
  max_duration: finite,
  price_before_taxes: finite,
  price_after_taxes: finite,
  discount: z.boolean().optional(),
  normal_price_before_taxes: finite.optional(),
  normal_price_after_taxes: finite.optional(),
  type: z.string().optional(),
  options: z.record(z.string(), z.unknown()).optional(),
  features: z.array(z.unknown()).optional(),
});
export type PriceTier = z.infer<typeof PriceTierSchema>;

export const TaxSchema = z.object({
  name: z.string(),
  name_label: z.string().optional(),
  type: z.string().optional(),
  rate: finite,
});
export type Tax = z.infer<typeof TaxSchema>;

export const ProductSchema = z.object({
  name: z.string(),
  status: z.string().optional(),
  process: z.enum(['create', 'renew']).or(z.string()),
  taxes: z.array(TaxSchema).optional(),
  phases: z.array(z.unknown()).optional(),
  prices: z.array(PriceTierSchema),
});
export type Product = z.infer<typeof ProductSchema>;

/** A full pricing object, or `{}` (unavailable results / billing_failed). */
export const PricesSchema = z.union([
  z.object({
    grid: z.string().optional(),
    currency: z.string(),
    taxes: z.array(TaxSchema).default([]),
    products: z.array(ProductSchema).default([]),
  }),
  z.object({}).strict(),
]);
export type Prices = z.infer<typeof PricesSchema>;

export function hasPricing(p: Prices | null): p is Extract<Prices, { currency: string }> {
  return p !== null && 'currency' in p;
}

/**
 * A pricing object as it arrives. One that does not parse (an amount that is not a finite
 * number, e.g. an overflowing exponent, or a broken shape) becomes `null`: that name's pricing
 * is unknown while its availability is kept. It is not a malformed answer: a missing price
 * never triggers the proxy fallback or a retry, and NaN or Infinity never
 * reach the output.
 */
export const LenientPricesSchema = z.unknown().transform((value): Prices | null => {
  const parsed = PricesSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : null;
});

/** Values seen: available, unavailable, error. Anything else is treated as unknown. */
export const AvailabilitySchema = z.string();

/** GET {shop_url}/api/v5/suggest/lookup */
export const LookupResultSchema = z.object({
  fqdn: z.string().min(1),
  availability: AvailabilitySchema,
  premium: finite.optional(),
  reserved: finite.optional(),
  prices: LenientPricesSchema.default({}),
});
export type LookupResult = z.infer<typeof LookupResultSchema>;

export const SuggestionSchema = z.object({
  fqdn: z.string().min(1),
  domain: z.string().optional(),
  tld: z.string().optional(),
  corporate: z.boolean().optional(),
  allow_lang: z.boolean().optional(),
  phase: z.string().nullable().optional(),
  provided: z.boolean().optional(),
  categories: z.array(z.string()).optional(),
  restriction: z.string().nullable().optional(),
});
export type Suggestion = z.infer<typeof SuggestionSchema>;

export const DasEventSchema = z.object({
  fqdn: z.string().min(1),
  availability: AvailabilitySchema,
  premium: finite.optional(),
  reserved: finite.optional(),
});
export type DasEvent = z.infer<typeof DasEventSchema>;

export const BillingEventSchema = z.object({ fqdn: z.string().min(1), prices: LenientPricesSchema });
export type BillingEvent = z.infer<typeof BillingEventSchema>;

export const PaginationEventSchema = z.object({
  'X-Total-Count': finite.optional(),
  page: finite.optional(),
  per_page: finite.optional(),
  next: z.string().nullable().optional(),
  last: z.string().nullable().optional(),
});
export type PaginationEvent = z.infer<typeof PaginationEventSchema>;

export const SuggestMetaSchema = z.object({
  tld_filter: z.array(z.string()).optional(),
  search_uuid: z.string().optional(),
  filter_failed: z.boolean().optional(),
});

/** One parsed stream event. Bundle events and unknown names are dropped by the parser. */
export type ShopStreamEvent =
  | { event: 'suggest_meta'; data: z.infer<typeof SuggestMetaSchema> }
  | { event: 'pagination'; data: PaginationEvent }
  | { event: 'suggestions'; data: Suggestion[] }
  | { event: 'das'; data: DasEvent }
  | { event: 'das_failed'; data: DasEvent }
  | { event: 'billing'; data: BillingEvent }
  | { event: 'billing_failed'; data: BillingEvent }
  | { event: 'tick'; data: null }
  | { event: 'done'; data: null };

export const STREAM_EVENT_SCHEMAS = {
  suggest_meta: SuggestMetaSchema,
  pagination: PaginationEventSchema,
  suggestions: z.array(SuggestionSchema),
  das: DasEventSchema,
  das_failed: DasEventSchema,
  billing: BillingEventSchema,
  billing_failed: BillingEventSchema,
  tick: z.null(),
  done: z.null(),
} as const;

/** Events the skill ignores on purpose. */
export const IGNORED_STREAM_EVENTS = new Set(['bundle_available', 'bundle_pricing']);
