/**
 * One skill call: every group runs concurrently under one shared limiter of 2 in-flight
 * upstream operations and one shared Retry-After gate (after a
 * 429 no operation of the call sends before the Retry-After time); the output keeps request
 * order. When every group
 * failed, {@link totalFailureError} turns the output into one catalogue error the activity
 * boundary can hand to Temporal (with nextRetryDelay from Retry-After).
 */
import { SkillflowError } from '../../../../../lib/errors/skillflow-error.js';
import type { ShopClient } from '../../upstream/index.js';
import type { SkillDeadlines } from '../../../../policy.js';
import type { UpstreamMeter } from '../../../../registry/types.js';
import { prepareGroups, type SearchDomainsInput } from './input.js';
import { MAX_IN_FLIGHT_OPERATIONS, OperationLimiter, type LimiterStats } from './operation-limiter.js';
import { totalFailureCode, type SearchDomainsOutput } from './output.js';
import { RateGate } from './rate-gate.js';
import type { RelevanceDecider } from './relevance-decision.js';
import { searchGroup, type GroupDiagnostics } from './search-group.js';

/** The search limits that tests and the benchmark may shorten. */
export interface SearchLimits {
  groupDeadlineMs: number;
  idleTimeoutMs: number;
  maxInFlight: number;
}

/** A call's limits: the policy's deadlines and the spec's in-flight cap, then any overrides. */
export function searchLimits(deadlines: SkillDeadlines, overrides: Partial<SearchLimits> = {}): SearchLimits {
  return {
    groupDeadlineMs: deadlines.groupDeadlineMs,
    idleTimeoutMs: deadlines.idleTimeoutMs,
    maxInFlight: MAX_IN_FLIGHT_OPERATIONS,
    ...overrides,
  };
}

/** What a call needs. */
export interface SearchDomainsDeps {
  shop: ShopClient;
  proxyEnabled: boolean;
  decide: RelevanceDecider;
  clock: () => Date;
  shopOrigin: string;
  limits: SearchLimits;
  signal?: AbortSignal | undefined;
  /** Charged before every upstream request (provider limits, counts). */
  meter: UpstreamMeter;
  /** Called when a 429 closes the call's Retry-After gate (the anonymous route aborts). */
  onRateLimited?: (waitMs: number, fromShop: boolean) => void;
}

/** Operational metadata of a call (counts and timing only). */
export interface SearchDiagnostics {
  limiter: LimiterStats;
  wallMs: number;
  groups: GroupDiagnostics[];
}

/** The output and what it took. */
export interface SearchRun {
  output: SearchDomainsOutput;
  diagnostics: SearchDiagnostics;
}

/**
 * Runs every group of a validated input. Rejects only when the caller cancels (with the
 * signal's reason); upstream trouble is reported per group.
 */
export async function searchDomains(input: SearchDomainsInput, deps: SearchDomainsDeps): Promise<SearchRun> {
  const { limits } = deps;
  const limiter = new OperationLimiter(limits.maxInFlight);
  const gate = new RateGate(deps.onRateLimited);
  const started = performance.now();
  const groups = prepareGroups(input);
  const runs = await Promise.all(
    groups.map((group) =>
      searchGroup(group, {
        shop: deps.shop,
        limiter,
        gate,
        meter: deps.meter,
        proxyEnabled: deps.proxyEnabled,
        decide: deps.decide,
        clock: deps.clock,
        shopOrigin: deps.shopOrigin,
        groupDeadlineMs: limits.groupDeadlineMs,
        idleTimeoutMs: limits.idleTimeoutMs,
        signal: deps.signal,
      }),
    ),
  );
  deps.signal?.throwIfAborted();
  return {
    output: { results: runs.map((r) => r.output) },
    diagnostics: {
      limiter: limiter.stats(),
      wallMs: performance.now() - started,
      groups: runs.map((r) => r.diagnostics),
    },
  };
}

/**
 * The error of a call in which every group failed with nothing checked, or undefined; its code
 * is {@link totalFailureCode}. With UPSTREAM_RATE_LIMITED it carries the longest Retry-After
 * (`retryAfterMs` and `details.retry_after_seconds`, which become the 429's Retry-After header,
 * also when the error comes back through a workflow). Details list each group's index and code, never a query. The error is
 * the call's final answer: Temporal never re-runs the search for it.
 */
export function totalFailureError(output: SearchDomainsOutput): SkillflowError | undefined {
  const groups = output.results;
  if (groups.length === 0 || groups.some((g) => g.error === null || g.partial)) return undefined;
  const code = totalFailureCode(groups);
  const waits = groups.flatMap((g) => (g.error?.retry_after === undefined ? [] : [g.error.retry_after]));
  const retryAfterMs =
    code === 'UPSTREAM_RATE_LIMITED' && waits.length > 0 ? Math.max(...waits) * 1000 : undefined;
  const details = {
    ...(retryAfterMs === undefined ? {} : { retry_after_seconds: retryAfterMs / 1000 }),
    groups: groups.map((g, index) => ({
      index,
      code: g.error?.code,
      ...(g.error?.retry_after === undefined ? {} : { retry_after: g.error.retry_after }),
    })),
  };
  const message = `All ${groups.length} domain search(es) failed upstream; nothing could be checked.`;
  return new SkillflowError(code, message, details, retryAfterMs);
}
