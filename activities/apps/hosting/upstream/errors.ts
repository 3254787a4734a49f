/**
 * Typed failures of the shop client and the proxy-fallback predicate.
 * Messages and details never carry query text, results, proxy URLs or credentials.
 */
import { SkillflowError } from '../../../../lib/errors/skillflow-error.js';
import type { ErrorCode } from '../../../../lib/errors/catalogue.js';

/** How a shop request was sent: the transport mode is operational metadata, never part of a result. */
export type ShopVia = 'direct' | 'proxy';

/**
 * - timeout: no headers, or no bytes for the idle timeout.
 * - network: connection refused or reset before an answer.
 * - forbidden: HTTP 403 (abuse check).
 * - bad_request: HTTP 400 and other 4xx the shop should never send to a valid request.
 * - rate_limited: HTTP 429; see `retryAfterMs`.
 * - server: HTTP 5xx.
 * - malformed: body or event data that does not parse, or an answer for another name.
 * - incomplete: a stream that ended (or broke) without `done`.
 * - proxy: the proxy is not configured, refused the credentials (407) or failed to connect.
 * - invalid: local validation rejected the request before sending.
 */
export type ShopErrorKind =
  | 'timeout'
  | 'network'
  | 'forbidden'
  | 'bad_request'
  | 'rate_limited'
  | 'server'
  | 'malformed'
  | 'incomplete'
  | 'proxy'
  | 'invalid';

const CODE_BY_KIND: Record<ShopErrorKind, ErrorCode> = {
  timeout: 'UPSTREAM_UNAVAILABLE',
  network: 'UPSTREAM_UNAVAILABLE',
  forbidden: 'UPSTREAM_UNAVAILABLE',
  bad_request: 'UPSTREAM_UNAVAILABLE',
  rate_limited: 'UPSTREAM_RATE_LIMITED',
  server: 'UPSTREAM_UNAVAILABLE',
  malformed: 'UPSTREAM_MALFORMED',
  incomplete: 'UPSTREAM_MALFORMED',
  proxy: 'UPSTREAM_UNAVAILABLE',
  invalid: 'INVALID_PARAMETER',
};

export interface ShopErrorInit {
  kind: ShopErrorKind;
  via: ShopVia;
  operation: 'lookup' | 'suggest';
  message: string;
  /** HTTP status when the shop (or the proxy) answered. */
  status?: number;
  retryAfterMs?: number;
  /** A transport error code such as `ECONNREFUSED` or `UND_ERR_BODY_TIMEOUT`; never a message. */
  causeCode?: string;
}

/** A classified shop failure. Its catalogue code follows from `kind`. */
export class ShopError extends SkillflowError {
  readonly kind: ShopErrorKind;
  readonly via: ShopVia;
  readonly operation: 'lookup' | 'suggest';
  readonly httpStatus: number | undefined;

  constructor(init: ShopErrorInit) {
    const details: Record<string, unknown> = {
      provider: 'shop',
      operation: init.operation,
      kind: init.kind,
      via: init.via,
    };
    if (init.status !== undefined) details.status = init.status;
    if (init.causeCode !== undefined) details.cause_code = init.causeCode;
    super(CODE_BY_KIND[init.kind], init.message, details, init.retryAfterMs);
    this.name = 'ShopError';
    this.kind = init.kind;
    this.via = init.via;
    this.operation = init.operation;
    this.httpStatus = init.status;
  }
}

const PROXY_ELIGIBLE: ReadonlySet<ShopErrorKind> = new Set([
  'timeout',
  'network',
  'forbidden',
  'server',
  'malformed',
  'incomplete',
]);

/**
 * After a failed direct request, may the one lazy proxy attempt run?
 * True for timeout, transport failure, 403, 5xx, malformed and incomplete answers. False for 429
 * (honour Retry-After, never rotate), 400, local validation, aborts, any non-shop error, and
 * any failure that already went through the proxy (there is only one proxy attempt).
 */
export function isProxyEligible(err: unknown): boolean {
  return err instanceof ShopError && err.via === 'direct' && PROXY_ELIGIBLE.has(err.kind);
}

/**
 * Parses a `Retry-After` value (delta seconds or an HTTP-date) into milliseconds from `now`.
 * Undefined when absent or unparseable; a date in the past gives 0.
 */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now: number = Date.now(),
): number | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) return Number(raw) * 1000;
  const at = Date.parse(raw);
  if (Number.isNaN(at) || !/[a-z]/i.test(raw)) return undefined;
  return Math.max(0, at - now);
}

/** Maps a non-2xx HTTP status to an error kind. */
export function kindForStatus(status: number): ShopErrorKind {
  if (status === 403) return 'forbidden';
  if (status === 407) return 'proxy';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server';
  return 'bad_request';
}
