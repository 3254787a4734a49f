/**
 * The shop simulator's deterministic catalogue: suffixes with their base prices, taken names,
 * premium names and restrictions, and the pricing objects built from them (wire notes, spec
 * 2.4-2.5). Everything here is pure so tests can predict every value.
 */
import { domainToASCII, domainToUnicode } from 'node:url';

interface SuffixInfo {
  /** Base prices in EUR before taxes, per tier (one tier per process). */
  create: number;
  renew: number;
  minYears: number;
  maxYears: number;
  categories: string[];
  /** Standard price for a discounted registration. */
  normalCreate?: number;
  restriction?: string;
}

/** Supported suffixes. `.invalid` is deliberately absent: lookups answer availability `error`. */
export const SUFFIXES: Readonly<Record<string, SuffixInfo>> = {
  com: { create: 10.99, renew: 13.99, minYears: 1, maxYears: 10, categories: ['gTLD'] },
  net: { create: 12.49, renew: 15.49, minYears: 1, maxYears: 10, categories: ['gTLD'] },
  org: { create: 11.49, renew: 14.49, minYears: 1, maxYears: 10, categories: ['gTLD'] },
  app: { create: 14.99, renew: 17.99, minYears: 1, maxYears: 10, categories: ['gTLD'] },
  io: { create: 39.99, renew: 49.99, minYears: 1, maxYears: 10, categories: ['ccTLD'] },
  de: { create: 5.99, renew: 5.99, minYears: 1, maxYears: 1, categories: ['ccTLD'] },
  online: {
    create: 2.99,
    normalCreate: 34.99,
    renew: 34.99,
    minYears: 1,
    maxYears: 10,
    categories: ['gTLD'],
  },
  ai: { create: 139.98, renew: 139.98, minYears: 2, maxYears: 10, categories: ['ccTLD'] },
  nyc: {
    create: 19.99,
    renew: 19.99,
    minYears: 1,
    maxYears: 10,
    categories: ['geoTLD'],
    restriction:
      '<p>Registrants must have a <strong>New York City</strong> address. <a href="/en/nyc">Read more</a></p>',
  },
};

/** Registered names (ASCII form). Every label of at most three characters is taken as well. */
export const TAKEN = new Set([
  'example.com',
  'example.net',
  'example.org',
  'cedar.com',
  'cedar.net',
  'cedar.de',
  'google.com',
  'books.com',
  'shop.app',
]);

/** Premium names: discounted registration below the normal price, premium renewal. */
export const PREMIUM: Readonly<Record<string, { create: number; normal: number; renew: number }>> = {
  'cedar.online': { create: 149.0, normal: 199.0, renew: 199.0 },
  'cloud.app': { create: 1200.0, normal: 1500.0, renew: 1500.0 },
};

/** VAT by tax country; every other country (US included) gets no tax entry. */
const VAT: Readonly<Record<string, number>> = { DE: 19, AT: 20, FR: 20, NL: 21 };
/** USD quotes are EUR amounts times this fixed rate. */
const USD_RATE = 1.08;

export type NameStatus = 'available' | 'unavailable' | 'error';

export interface NameInfo {
  /** ASCII (punycode) form, lower case; the identity the shop answers with. */
  ascii: string;
  unicode: string;
  label: string;
  suffix: string;
  status: NameStatus;
  premium: boolean;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Classifies a name the way the shop does: space → unavailable, unknown suffix → error. */
export function describeName(raw: string): NameInfo {
  const trimmed = raw.trim().replace(/\.$/, '').toLowerCase();
  const ascii = /\s/.test(trimmed) ? '' : domainToASCII(trimmed);
  const unicode = ascii ? domainToUnicode(ascii) : trimmed;
  const dot = (ascii || trimmed).indexOf('.');
  const label = dot > 0 ? (ascii || trimmed).slice(0, dot) : ascii || trimmed;
  const suffix = dot > 0 ? (ascii || trimmed).slice(dot + 1) : '';
  const base = { ascii: ascii || trimmed, unicode, label, suffix, premium: false };
  if (/\s/.test(trimmed)) return { ...base, status: 'unavailable' };
  if (!ascii || dot <= 0 || !Object.hasOwn(SUFFIXES, suffix)) return { ...base, status: 'error' };
  if (TAKEN.has(ascii) || label.length <= 3) return { ...base, status: 'unavailable' };
  return { ...base, status: 'available', premium: Object.hasOwn(PREMIUM, ascii) };
}

/** The restriction HTML of a suffix, or null. */
export function restrictionOf(suffix: string): string | null {
  return SUFFIXES[suffix]?.restriction ?? null;
}

export function categoriesOf(suffix: string): string[] {
  return SUFFIXES[suffix]?.categories ?? [];
}

function taxesFor(country: string) {
  const rate = VAT[country.toUpperCase()];
  return rate === undefined ? [] : [{ name: 'vat', name_label: 'VAT', type: 'service', rate }];
}

/** Quote currency: EUR and USD are honoured; anything else is answered in EUR, as the shop does. */
export function quoteCurrency(requested: string): 'EUR' | 'USD' {
  return requested.toUpperCase() === 'USD' ? 'USD' : 'EUR';
}

interface TierInput {
  min: number;
  max: number;
  price: number;
  normal?: number;
  premium?: boolean;
}

function tier(t: TierInput, currency: 'EUR' | 'USD', vatRate: number) {
  const convert = (eur: number) => round2(currency === 'USD' ? eur * USD_RATE : eur);
  const before = convert(t.price);
  const out: Record<string, unknown> = {
    duration_unit: 'y',
    min_duration: t.min,
    max_duration: t.max,
    price_before_taxes: before,
    price_after_taxes: round2(before * (1 + vatRate / 100)),
    discount: t.normal !== undefined,
  };
  if (t.normal !== undefined) {
    const normal = convert(t.normal);
    out.normal_price_before_taxes = normal;
    out.normal_price_after_taxes = round2(normal * (1 + vatRate / 100));
  }
  if (t.premium) out.type = 'premium';
  out.options = { phase: 'golive' };
  out.features = [];
  return out;
}

/**
 * The pricing object for an available name. `forceCurrency` lets the wrong-currency fault
 * answer in a currency the client did not ask for.
 */
export function pricesFor(
  info: NameInfo,
  requestedCurrency: string,
  country: string,
  forceCurrency?: 'EUR' | 'USD',
) {
  const suffix = SUFFIXES[info.suffix];
  if (!suffix || info.status !== 'available') return {};
  const currency = forceCurrency ?? quoteCurrency(requestedCurrency);
  const taxes = taxesFor(country);
  const vatRate = taxes[0]?.rate ?? 0;
  const premium = info.premium ? PREMIUM[info.ascii] : undefined;
  const { minYears: min, maxYears: max } = suffix;
  const create: TierInput = premium
    ? { min, max: min, price: premium.create, normal: premium.normal, premium: true }
    : suffix.normalCreate !== undefined
      ? { min, max: min, price: suffix.create, normal: suffix.normalCreate }
      : { min, max, price: suffix.create };
  const renew: TierInput = premium
    ? { min, max: min, price: premium.renew, premium: true }
    : { min, max, price: suffix.renew };
  const product = (process: 'create' | 'renew', t: TierInput) => ({
    name: premium ? info.ascii : `.${info.suffix}`,
    status: 'available',
    process,
    taxes,
    phases: [],
    prices: [tier(t, currency, vatRate)],
  });
  return { grid: 'A', currency, taxes, products: [product('create', create), product('renew', renew)] };
}
