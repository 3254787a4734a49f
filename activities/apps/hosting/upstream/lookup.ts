/**
 * Exact lookup of one full domain name (`GET {shop_url}/api/v5/suggest/lookup`).
 * One request, no retries: the caller owns the lazy proxy attempt and per-domain retries.
 */
import { ShopError, type ShopVia } from './errors.js';
import { countryParam, currencyParam, lookupName, sameFqdn } from './fqdn.js';
import type { ShopTransport } from './transport.js';
import { LookupResultSchema, type LookupResult } from './wire.js';

export const LOOKUP_PATH = '/api/v5/suggest/lookup';

/** Quote parameters sent upstream: the only user data besides the name. */
export interface QuoteParams {
  /** ISO 4217, e.g. `EUR`. */
  currency: string;
  /** Tax country, e.g. `DE`. */
  country: string;
}

export interface ShopCallOptions {
  signal?: AbortSignal;
  /** Default `direct`. */
  via?: ShopVia;
}

export interface LookupOptions extends ShopCallOptions {
  /** Limit for the headers and for each gap between body bytes; default: the client's. */
  timeoutMs?: number;
}

function invalid(operation: 'lookup' | 'suggest', via: ShopVia, message: string): ShopError {
  return new ShopError({ kind: 'invalid', operation, via, message });
}

/** Validates quote parameters locally; throws an `invalid` ShopError (never proxy-eligible). */
export function quoteParams(
  quote: QuoteParams,
  operation: 'lookup' | 'suggest',
  via: ShopVia,
): { currency: string; country: string } {
  const currency = currencyParam(quote.currency);
  const country = countryParam(quote.country);
  if (!currency) throw invalid(operation, via, 'The currency must be a three-letter code.');
  if (!country) throw invalid(operation, via, 'The country must be a two-letter code.');
  return { currency, country };
}

/**
 * Looks up one full domain name. The name is sent in its canonical ASCII form. Throws a
 * {@link ShopError}: `invalid` before sending for a bad name or quote parameters, `malformed`
 * for a body that does not parse or answers for a different name, and the HTTP/transport kinds
 * otherwise. An abort rejects with the signal's reason.
 */
export async function lookup(
  transport: ShopTransport,
  fqdn: string,
  quote: QuoteParams,
  opts: LookupOptions = {},
): Promise<LookupResult> {
  const via = opts.via ?? 'direct';
  const name = lookupName(fqdn);
  if (!name) throw invalid('lookup', via, 'The name is not a valid full domain name.');
  const { currency, country } = quoteParams(quote, 'lookup', via);
  const req = {
    operation: 'lookup' as const,
    path: LOOKUP_PATH,
    params: [
      ['search', name],
      ['currency', currency],
      ['country', country],
      ['grid', 'A'],
    ] as const,
    accept: 'application/json' as const,
    via,
    signal: opts.signal,
    idleTimeoutMs: opts.timeoutMs,
  };
  const res = await transport.send(req);
  let text: string;
  try {
    text = await res.body.text();
  } catch (err) {
    throw transport.classify(err, req, 'body');
  }
  const malformed = (why: string) =>
    new ShopError({ kind: 'malformed', operation: 'lookup', via, message: `The shop lookup answer ${why}.` });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw malformed('is not valid JSON');
  }
  const parsed = LookupResultSchema.safeParse(json);
  if (!parsed.success) throw malformed('does not match the expected shape');
  if (!sameFqdn(parsed.data.fqdn, name)) throw malformed('names a different domain');
  return parsed.data;
}
