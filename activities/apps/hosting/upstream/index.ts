/**
 * The shop provider's entry module: the low-level client for exact lookups and suggestion
 * streams. It makes exactly one request per call and never retries; the orchestration layer
 * decides on the one lazy proxy attempt ({@link isProxyEligible}) and per-domain retries.
 */
import { lookup, type LookupOptions, type QuoteParams } from './lookup.js';
import { suggest, type SuggestOptions, type SuggestParams } from './suggest.js';
import { createShopTransport, type ShopTransportOptions } from './transport.js';
import type { LookupResult, ShopStreamEvent } from './wire.js';

export interface ShopClient {
  /** Origin of the shop, for building external links. */
  readonly origin: string;
  /** Exact lookup of one full domain name; see {@link lookup}. */
  lookup(fqdn: string, quote: QuoteParams, opts?: LookupOptions): Promise<LookupResult>;
  /** One suggestion stream page for one extension, or none; see {@link suggest}. */
  suggest(
    keyword: string,
    tld: string | undefined,
    params: SuggestParams,
    opts?: SuggestOptions,
  ): AsyncIterable<ShopStreamEvent>;
  /** Closes the proxy connection pool, if one was opened. */
  close(): Promise<void>;
}

/**
 * Creates a shop client. `shopUrl` is `config.SHOP_URL` (or the simulator's URL), `proxyUrl` is
 * `config.PROXY_URL`; the proxy credentials are read from `secrets` on first proxy use.
 */
export function createShopClient(opts: ShopTransportOptions): ShopClient {
  const transport = createShopTransport(opts);
  return {
    origin: transport.origin,
    lookup: (fqdn, quote, callOpts) => lookup(transport, fqdn, quote, callOpts),
    suggest: (keyword, tld, params, callOpts) => suggest(transport, keyword, tld, params, callOpts),
    close: () => transport.close(),
  };
}

export { isProxyEligible, parseRetryAfter, ShopError, type ShopErrorKind, type ShopVia } from './errors.js';
export { canonicalFqdn, sameFqdn } from './fqdn.js';
export type { LookupOptions, QuoteParams, ShopCallOptions } from './lookup.js';
export type { SuggestOptions, SuggestParams } from './suggest.js';
export { BROWSER_USER_AGENT, type ShopTransportOptions } from './transport.js';
