/**
 * The direct request goes first; one lazy attempt through the residential
 * proxy on a transport timeout, 403, 5xx, malformed answer or incomplete stream
 * ({@link isProxyEligible}); 429 is honoured with Retry-After (never the proxy, never a rotation,
 * at most one wait and only when it fits the group deadline); a transient error on one exact
 * lookup retries only that lookup, within the group's deadline and attempt budget. Missing
 * prices, in-use answers, unsupported suffixes and local validation never reach this module as
 * errors: they are answers.
 */
import { isProxyEligible, ShopError, type ShopVia } from '../../upstream/index.js';
import { sleep } from './deadline.js';
import { PlatformFailure } from './platform-failure.js';
import { isCandidateComplete, type CheckedCandidate } from './joiner.js';

/** Attempts per exact lookup, proxy and Retry-After retries included. */
export const MAX_LOOKUP_ATTEMPTS = 3;
/** Attempts per suggestion page: direct, then the proxy or one Retry-After retry. */
export const MAX_STREAM_ATTEMPTS = 2;
/** Pause before retrying a transient lookup failure directly. */
export const TRANSIENT_BACKOFF_MS = 200;
/** A retry must leave this much of the deadline for the request itself. */
export const RETRY_MARGIN_MS = 250;

const TRANSIENT_KINDS = new Set(['server', 'network', 'timeout']);

/** What to do after a failed attempt. */
export type NextStep =
  { kind: 'proxy' } | { kind: 'wait'; ms: number } | { kind: 'retry'; ms: number } | { kind: 'give_up' };

/** What the policy knows when an attempt failed. */
export interface AttemptState {
  /** Attempts made so far, the failed one included. */
  attempts: number;
  maxAttempts: number;
  proxyUsed: boolean;
  rateLimitWaited: boolean;
  /** True when a proxy URL is configured. */
  proxyEnabled: boolean;
  /** Whether transient failures may be retried directly (exact lookups only). */
  retryTransient: boolean;
  /** Milliseconds left before the group deadline. */
  remainingMs: number;
}

/** The fallback policy as a pure decision (unit-tested on its own). */
export function nextStep(err: unknown, s: AttemptState): NextStep {
  if (!(err instanceof ShopError) || s.attempts >= s.maxAttempts) return { kind: 'give_up' };
  if (err.kind === 'rate_limited') {
    const wait = err.retryAfterMs;
    const fits = wait !== undefined && wait + RETRY_MARGIN_MS < s.remainingMs;
    return !s.rateLimitWaited && fits ? { kind: 'wait', ms: wait } : { kind: 'give_up' };
  }
  if (s.proxyEnabled && !s.proxyUsed && isProxyEligible(err)) return { kind: 'proxy' };
  if (
    s.retryTransient &&
    TRANSIENT_KINDS.has(err.kind) &&
    TRANSIENT_BACKOFF_MS + RETRY_MARGIN_MS < s.remainingMs
  ) {
    return { kind: 'retry', ms: TRANSIENT_BACKOFF_MS };
  }
  return { kind: 'give_up' };
}

/** Options of {@link runWithFallback}. */
export interface FallbackOptions {
  proxyEnabled: boolean;
  retryTransient: boolean;
  maxAttempts: number;
  /** The group deadline's signal. */
  signal: AbortSignal;
  remainingMs: () => number;
  /** Called before each attempt with its transport (operational metadata only). */
  onAttempt?: (via: ShopVia) => void;
}

/**
 * Runs `attempt` direct first and follows {@link nextStep}. Resolves with the first success.
 * Rejects with the abort reason when the signal aborts, otherwise with the most telling error:
 * a failure of the proxy itself (407, unreachable) never hides the shop's own answer, nor
 * prevents the direct retry that answer allows.
 */
export async function runWithFallback<T>(
  attempt: (via: ShopVia) => Promise<T>,
  opts: FallbackOptions,
): Promise<T> {
  let via: ShopVia = 'direct';
  let attempts = 0;
  let proxyUsed = false;
  let rateLimitWaited = false;
  let reported: unknown;
  for (;;) {
    attempts += 1;
    opts.onAttempt?.(via);
    try {
      return await attempt(via);
    } catch (err) {
      // Our own platform failed before anything was sent: no retry and no proxy can help.
      if (err instanceof PlatformFailure) throw err;
      if (opts.signal.aborted) throw opts.signal.reason;
      const proxyFailed = err instanceof ShopError && err.kind === 'proxy';
      if (!proxyFailed || reported === undefined) reported = err;
      // When the proxy itself failed, the shop's own failure decides: a transient one is still
      // retried directly.
      const step = nextStep(proxyFailed ? reported : err, {
        attempts,
        maxAttempts: opts.maxAttempts,
        proxyUsed,
        rateLimitWaited,
        proxyEnabled: opts.proxyEnabled,
        retryTransient: opts.retryTransient,
        remainingMs: opts.remainingMs(),
      });
      if (step.kind === 'give_up') throw reported;
      if (step.kind === 'proxy') {
        via = 'proxy';
        proxyUsed = true;
        continue;
      }
      if (step.kind === 'wait') rateLimitWaited = true;
      via = 'direct';
      await sleep(step.ms, opts.signal);
    }
  }
}

function isConfirmed(c: CheckedCandidate | undefined): boolean {
  return c?.availability === 'available' || c?.availability === 'unavailable';
}

/**
 * Merges the evidence of several attempts at one operation, earliest first (direct, then the
 * proxy or a retry). Order is first-seen. For a name an earlier attempt confirmed (available or
 * in use) the later evidence is ignored entirely: it can neither turn the status unknown nor
 * add a price. A later confirmed answer replaces an earlier unknown or pending one.
 */
export function mergeEvidence(attempts: readonly (readonly CheckedCandidate[])[]): CheckedCandidate[] {
  const byDomain = new Map<string, CheckedCandidate>();
  for (const candidates of attempts) {
    for (const candidate of candidates) {
      const earlier = byDomain.get(candidate.domain);
      if (earlier === undefined) byDomain.set(candidate.domain, candidate);
      else if (!isConfirmed(earlier) && (isConfirmed(candidate) || !isCandidateComplete(earlier))) {
        byDomain.set(candidate.domain, candidate);
      }
    }
  }
  return [...byDomain.values()];
}
