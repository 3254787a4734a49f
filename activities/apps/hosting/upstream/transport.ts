/**
 * HTTP transport to the shop: browser-style headers, direct or through the
 * residential proxy, and classification of every transport failure into a {@link ShopError}.
 * Direct requests use undici's global dispatcher; proxy requests use one lazily created
 * `ProxyAgent` whose credentials come from the secret store and never leave this module; a
 * request's trace span says which way it went. A hung proxy never holds a request past its idle
 * timeout or its caller's signal: the tunnel's CONNECT answer is bounded by the idle timeout,
 * and every request settles when the signal aborts.
 */
import { Pool, ProxyAgent, request, type Dispatcher } from 'undici';
import type { SecretStore } from '../../../../lib/secrets.js';
import { withUpstreamVia } from '../../../../lib/tracing/http-client.js';
import { kindForStatus, parseRetryAfter, ShopError, type ShopVia } from './errors.js';

/** A current desktop browser's User-Agent: the shop answers 403 to anything else. */
export const BROWSER_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

export interface ShopTransportOptions {
  /** `SHOP_URL`: the shop origin (simulator or real host). */
  shopUrl: string;
  /** `PROXY_URL`: the residential proxy; any credentials in it are ignored. */
  proxyUrl?: string;
  /** Source of `proxy_username` and `proxy_password`. */
  secrets: SecretStore;
  /**
   * Limit for the response headers and for every gap between body bytes, unless a call sets
   * its own: the idle timeout of the calling skill's policy (activities/policy.ts).
   */
  idleTimeoutMs: number;
}

export interface ShopRequest {
  operation: 'lookup' | 'suggest';
  path: string;
  /** Query parameters in the order they are sent. */
  params: ReadonlyArray<readonly [string, string]>;
  accept: 'application/json' | 'text/event-stream';
  via: ShopVia;
  signal?: AbortSignal;
  /** Limit for the response headers and for every gap between body bytes; default: the transport's. */
  idleTimeoutMs: number | undefined;
}

export interface ShopTransport {
  /** Origin used for URLs and the Referer. */
  readonly origin: string;
  /** Sends a GET; resolves with a 2xx response, throws a ShopError otherwise. */
  send(req: ShopRequest): Promise<Dispatcher.ResponseData>;
  /** Classifies an error thrown while reading a body (abort reasons pass through unchanged). */
  classify(
    err: unknown,
    req: Pick<ShopRequest, 'operation' | 'via' | 'signal'>,
    phase: 'connect' | 'body',
  ): unknown;
  close(): Promise<void>;
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
]);

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z0-9_]{2,64}$/.test(code) ? code : undefined;
}

/**
 * Settles with `pending`, or rejects with the signal's reason as soon as it aborts: undici does
 * not abort a request still waiting for a proxy tunnel. An answer that arrives after the abort
 * is discarded.
 */
function settleOnAbort(
  pending: Promise<Dispatcher.ResponseData>,
  signal: AbortSignal | undefined,
): Promise<Dispatcher.ResponseData> {
  if (!signal) return pending;
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason as Error);
      pending.then(
        (late) => late.body.destroy(),
        () => undefined,
      );
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    pending
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort))
      .catch(() => undefined);
  });
}

/** Creates the transport. Nothing connects until the first request. */
export function createShopTransport(opts: ShopTransportOptions): ShopTransport {
  const origin = new URL(opts.shopUrl).origin;
  let proxyAgent: ProxyAgent | undefined;

  function dispatcherFor(via: ShopVia, operation: ShopRequest['operation']): Dispatcher | undefined {
    if (via === 'direct') return undefined;
    if (proxyAgent) return proxyAgent;
    const username = opts.secrets.get('proxy_username');
    const password = opts.secrets.get('proxy_password');
    if (!opts.proxyUrl || !username || !password) {
      throw new ShopError({
        kind: 'proxy',
        via,
        operation,
        message: 'The residential proxy is not configured.',
      });
    }
    const uri = new URL(opts.proxyUrl);
    uri.username = '';
    uri.password = '';
    const token = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
    proxyAgent = new ProxyAgent({
      uri: uri.toString(),
      token,
      // The request's headersTimeout starts only once the tunnel is open; this bounds the
      // proxy's answer to the CONNECT itself.
      clientFactory: (origin, clientOpts) =>
        new Pool(origin, { ...clientOpts, headersTimeout: opts.idleTimeoutMs }),
    });
    return proxyAgent;
  }

  function classify(
    err: unknown,
    req: Pick<ShopRequest, 'operation' | 'via' | 'signal'>,
    phase: 'connect' | 'body',
  ): unknown {
    if (req.signal?.aborted) return req.signal.reason;
    if (err instanceof ShopError) return err;
    const { operation, via } = req;
    const code = errorCode(err);
    const message = err instanceof Error ? err.message : '';
    // undici reports a proxy's refusal only in the message (tunnel and absolute-form variants).
    const proxyStatus = /^Proxy (?:response|Authentication Required) \((\d{3})\)/.exec(message);
    if (proxyStatus) {
      const status = Number(proxyStatus[1]);
      const text =
        status === 407
          ? 'The residential proxy rejected its credentials (407).'
          : `The residential proxy could not open a tunnel (${status}).`;
      return new ShopError({ kind: 'proxy', via, operation, status, message: text, causeCode: code });
    }
    if (code && TIMEOUT_CODES.has(code)) {
      return new ShopError({
        kind: 'timeout',
        via,
        operation,
        causeCode: code,
        message: `The shop did not answer in time (${operation}, ${via}).`,
      });
    }
    if (phase === 'body') {
      return new ShopError({
        kind: 'incomplete',
        via,
        operation,
        causeCode: code,
        message: `The shop connection broke mid-answer (${operation}, ${via}).`,
      });
    }
    if (via === 'proxy') {
      return new ShopError({
        kind: 'proxy',
        via,
        operation,
        causeCode: code,
        message: 'The residential proxy could not be reached.',
      });
    }
    return new ShopError({
      kind: 'network',
      via,
      operation,
      causeCode: code,
      message: `The shop could not be reached (${operation}, ${via}).`,
    });
  }

  async function send(req: ShopRequest): Promise<Dispatcher.ResponseData> {
    const url = new URL(req.path, origin);
    for (const [k, v] of req.params) url.searchParams.append(k, v);
    const dispatcher = dispatcherFor(req.via, req.operation);
    let res: Dispatcher.ResponseData;
    try {
      res = await settleOnAbort(
        withUpstreamVia(req.via, () =>
          request(url, {
            method: 'GET',
            // Deliberately no Origin header: the shop answers a browser Origin with 400 (CSRF).
            headers: {
              'user-agent': BROWSER_USER_AGENT,
              referer: `${origin}/`,
              accept: req.accept,
              'accept-language': 'en',
            },
            ...(dispatcher ? { dispatcher } : {}),
            ...(req.signal ? { signal: req.signal } : {}),
            headersTimeout: req.idleTimeoutMs ?? opts.idleTimeoutMs,
            bodyTimeout: req.idleTimeoutMs ?? opts.idleTimeoutMs,
          }),
        ),
        req.signal,
      );
    } catch (err) {
      throw classify(err, req, 'connect');
    }
    if (res.statusCode >= 200 && res.statusCode < 300) return res;
    // The body of an error answer is never read into a message; drain it so the socket is reused.
    res.body.resume();
    res.body.on('error', () => {});
    const kind = kindForStatus(res.statusCode);
    throw new ShopError({
      kind,
      via: req.via,
      operation: req.operation,
      status: res.statusCode,
      retryAfterMs: kind === 'rate_limited' ? parseRetryAfter(res.headers['retry-after']) : undefined,
      message:
        kind === 'proxy'
          ? 'The residential proxy rejected its credentials (407).'
          : `The shop answered HTTP ${res.statusCode} (${req.operation}, ${req.via}).`,
    });
  }

  return {
    origin,
    send,
    classify,
    // Destroyed, not closed: once the call is over, a request still waiting on a hung proxy is
    // abandoned, and a graceful close would wait for it.
    close: async () => {
      await proxyAgent?.destroy();
      proxyAgent = undefined;
    },
  };
}
