/**
 * The two upstream operations of a group: one exact lookup, and one suggestion page (one
 * keyword, at most one extension, one page). Each attempt passes the call's Retry-After gate,
 * holds a slot of the call's shared limiter, is charged to the shop's provider limit and follows
 * the fallback policy; neither ever rejects: what completed is returned together with the issue
 * that cut the rest.
 */
import { SkillflowError } from '../../../../../lib/errors/skillflow-error.js';
import { ShopError, type QuoteParams, type ShopClient, type ShopVia } from '../../upstream/index.js';
import type { UpstreamMeter } from '../../../../registry/types.js';
import type { Deadline } from './deadline.js';
import { MAX_LOOKUP_ATTEMPTS, MAX_STREAM_ATTEMPTS, mergeEvidence, runWithFallback } from './fallback.js';
import { issueFrom, type GroupIssue } from './group-issues.js';
import { PlatformFailure } from './platform-failure.js';
import { isCandidateComplete, StreamJoiner, type CheckedCandidate } from './joiner.js';
import { suffixOf } from './names.js';
import type { OperationLimiter } from './operation-limiter.js';
import { candidateFromLookup } from './result.js';
import type { RateGate } from './rate-gate.js';
import type { PagePlan } from './search-plan.js';

/** Attempts per transport, for diagnostics (never user-facing). */
export interface TransportCounters {
  direct: number;
  proxy: number;
}

/** Everything an operation needs; one per group. */
export interface OperationContext {
  shop: ShopClient;
  limiter: OperationLimiter;
  /** The call's Retry-After gate, shared by every group. */
  gate: RateGate;
  /** The call's upstream meter (provider limit and counts). */
  meter: UpstreamMeter;
  proxyEnabled: boolean;
  /** Currency and tax country: the only user data besides the name or keyword. */
  quote: QuoteParams;
  /** Idle timeout for lookups and for every gap in a stream. */
  idleTimeoutMs: number;
  deadline: Deadline;
  counters: TransportCounters;
}

/** What one operation produced. */
export interface OperationResult {
  /** Complete candidates (availability known), in provider order. */
  candidates: CheckedCandidate[];
  /** Suggested names whose check never arrived because the operation was cut. */
  unchecked: number;
  /** Why the operation did not complete, if it did not. */
  issue: GroupIssue | undefined;
  /** For a suggestion page that completed: whether the shop offers a next page. */
  hasNext: boolean;
}

function fallbackOptions(ctx: OperationContext) {
  return {
    proxyEnabled: ctx.proxyEnabled,
    signal: ctx.deadline.signal,
    remainingMs: () => ctx.deadline.remainingMs(),
  };
}

/** Our own shop provider limit, used up, as the 429 it stands for (never sent upstream). */
function limitAsShopError(err: unknown, operation: 'lookup' | 'suggest'): unknown {
  if (!(err instanceof SkillflowError) || err.code !== 'UPSTREAM_RATE_LIMITED') return err;
  return new ShopError({
    kind: 'rate_limited',
    via: 'direct',
    operation,
    message: 'Not sent: the shop provider limit is used up.',
    ...(err.retryAfterMs === undefined ? {} : { retryAfterMs: err.retryAfterMs }),
  });
}

/**
 * Sends one shop request: waits at the call's Retry-After gate (holding no slot), takes a slot
 * of the call's limiter, charges the shop's provider limit, and closes the gate on a 429. The
 * request is counted only when it is really sent.
 */
async function send<T>(
  ctx: OperationContext,
  operation: 'lookup' | 'suggest',
  via: ShopVia,
  request: () => Promise<T>,
): Promise<T> {
  const signal = ctx.deadline.signal;
  for (;;) {
    await ctx.gate.pass(operation, ctx.deadline.remainingMs(), signal);
    const sent = await ctx.limiter.run(async () => {
      // A 429 may have closed the gate while this operation waited for its slot.
      if (ctx.gate.waitMs() > 0) return undefined;
      try {
        await ctx.meter.charge('shop');
      } catch (err) {
        const limited = limitAsShopError(err, operation);
        if (limited instanceof ShopError) throw ctx.gate.rateLimited(limited);
        if (signal.aborted) throw err;
        // Not a limit: the platform could not count the request, so nothing is sent.
        throw new PlatformFailure(err);
      }
      ctx.counters[via] += 1;
      try {
        return { value: await request() };
      } catch (err) {
        if (err instanceof ShopError && err.kind === 'rate_limited') throw ctx.gate.rateLimited(err);
        throw err;
      }
    }, signal);
    if (sent) return sent.value;
  }
}

/**
 * Looks up one canonical name. A transient failure retries only this lookup; a 429 waits once
 * for Retry-After when it fits the deadline; eligible failures get the one proxy attempt.
 */
export async function exactLookup(ctx: OperationContext, domain: string): Promise<OperationResult> {
  const what = `exact lookup (.${suffixOf(domain)})`;
  const signal = ctx.deadline.signal;
  try {
    const answer = await runWithFallback(
      (via) =>
        send(ctx, 'lookup', via, () =>
          ctx.shop.lookup(domain, ctx.quote, { via, signal, timeoutMs: ctx.idleTimeoutMs }),
        ),
      { ...fallbackOptions(ctx), retryTransient: true, maxAttempts: MAX_LOOKUP_ATTEMPTS },
    );
    // The client already rejects an answer for another name; this keeps the identity rule local.
    const candidate = candidateFromLookup(domain, answer);
    if (candidate === undefined) {
      return {
        candidates: [],
        unchecked: 0,
        issue: { what, code: 'UPSTREAM_MALFORMED', reason: 'a malformed answer' },
        hasNext: false,
      };
    }
    return { candidates: [candidate], unchecked: 0, issue: undefined, hasNext: false };
  } catch (err) {
    if (err instanceof PlatformFailure) throw err;
    return { candidates: [], unchecked: 0, issue: issueFrom(what, err), hasNext: false };
  }
}

/**
 * Reads one suggestion page into a fresh joiner per attempt. After a failed direct stream the
 * proxy's evidence is merged behind it ({@link mergeEvidence}); on a timeout, an incomplete
 * stream or the deadline, the complete candidates survive and the issue names the page.
 */
export async function suggestionPage(
  ctx: OperationContext,
  keyword: string,
  plan: PagePlan,
  suffixes: readonly string[] | undefined,
): Promise<OperationResult> {
  const what = `suggestion page ${plan.page} (${plan.tld === undefined ? 'any extension' : `.${plan.tld}`})`;
  const signal = ctx.deadline.signal;
  const joiners: StreamJoiner[] = [];
  const params = { ...ctx.quote, page: plan.page };
  let issue: GroupIssue | undefined;
  try {
    await runWithFallback(
      (via) =>
        send(ctx, 'suggest', via, async () => {
          const joiner = new StreamJoiner(suffixes);
          joiners.push(joiner);
          const stream = ctx.shop.suggest(keyword, plan.tld, params, {
            via,
            signal,
            idleTimeoutMs: ctx.idleTimeoutMs,
          });
          for await (const event of stream) joiner.push(event);
        }),
      { ...fallbackOptions(ctx), retryTransient: false, maxAttempts: MAX_STREAM_ATTEMPTS },
    );
  } catch (err) {
    if (err instanceof PlatformFailure) throw err;
    issue = issueFrom(what, err);
  }
  const merged = mergeEvidence(joiners.map((j) => j.candidates()));
  const complete = merged.filter(isCandidateComplete);
  const finished = joiners.find((j) => j.isComplete);
  return {
    candidates: complete,
    // A completed stream that omitted a check is the shop's answer, not a cut.
    unchecked: issue === undefined ? 0 : merged.length - complete.length,
    issue,
    hasNext: finished !== undefined && finished.pagination.next !== null,
  };
}
