/**
 * One domain search group from plan to output: exact lookups first (concurrently, through the
 * call's shared limiter), then suggestion pages while the results are short, then the pool,
 * the relevance decision and selection. Everything runs under the group deadline; checks that
 * completed before it, or before any other failure, are kept and the group is marked partial.
 * Never rejects for upstream trouble, so one group's failure never fails its siblings.
 */
import type { ShopClient } from '../../upstream/index.js';
import type { UpstreamMeter } from '../../../../registry/types.js';
import { startDeadline } from './deadline.js';
import { mergeEvidence } from './fallback.js';
import { groupErrorFrom, issueFrom, type GroupIssue } from './group-issues.js';
import {
  exactLookup,
  suggestionPage,
  type OperationContext,
  type OperationResult,
  type TransportCounters,
} from './group-operations.js';
import type { PreparedGroup } from './input.js';
import type { CheckedCandidate } from './joiner.js';
import type { OperationLimiter } from './operation-limiter.js';
import type { RateGate } from './rate-gate.js';
import { buildGroupOutput, buildGroupPool, failedGroupOutput, type GroupOutput } from './output.js';
import type { RelevanceDecider } from './relevance-decision.js';
import { buildRelevanceInput, isRelevanceRequested } from './relevance.js';
import { planSearch, usefulCount, type SearchMode } from './search-plan.js';

/** What a group needs from the call. */
export interface GroupDeps {
  shop: ShopClient;
  /** The call's limiter, shared by every group. */
  limiter: OperationLimiter;
  /** The call's Retry-After gate, shared by every group. */
  gate: RateGate;
  /** The call's upstream meter. */
  meter: UpstreamMeter;
  proxyEnabled: boolean;
  decide: RelevanceDecider;
  /** Source of `checked_at`. */
  clock: () => Date;
  /** Origin of result links (from SHOP_URL). */
  shopOrigin: string;
  groupDeadlineMs: number;
  idleTimeoutMs: number;
  /** The caller's cancellation (the activity's signal). */
  signal?: AbortSignal | undefined;
}

/** Operational metadata of one group: counts and timing only, no query or result. */
export interface GroupDiagnostics {
  index: number;
  mode: SearchMode;
  /** Upstream attempts by transport (metadata, never in the output). */
  attempts: TransportCounters;
  elapsedMs: number;
  status: 'complete' | 'partial' | 'failed';
}

/** A group's output and its diagnostics. */
export interface GroupRun {
  output: GroupOutput;
  diagnostics: GroupDiagnostics;
}

/**
 * Deduplicates by canonical FQDN across operations (earliest confirmed evidence wins, see
 * mergeEvidence) and keeps a suggestion's restriction and corporate flag for a name an exact
 * lookup answered first: those describe the extension, not the check.
 */
function combine(evidence: readonly CheckedCandidate[]): CheckedCandidate[] {
  return mergeEvidence([evidence]).map((c) => {
    if (c.restriction !== null || c.corporate) return c;
    const detail = evidence.find((o) => o.domain === c.domain && (o.restriction !== null || o.corporate));
    return detail ? { ...c, restriction: detail.restriction, corporate: detail.corporate } : c;
  });
}

/** Runs one group. */
export async function searchGroup(group: PreparedGroup, deps: GroupDeps): Promise<GroupRun> {
  const started = performance.now();
  const deadline = startDeadline(deps.groupDeadlineMs, deps.signal);
  const counters: TransportCounters = { direct: 0, proxy: 0 };
  const { input } = group;
  const plan = planSearch(group);
  const ctx: OperationContext = {
    shop: deps.shop,
    limiter: deps.limiter,
    gate: deps.gate,
    meter: deps.meter,
    proxyEnabled: deps.proxyEnabled,
    quote: { currency: input.currency, country: input.country },
    idleTimeoutMs: deps.idleTimeoutMs,
    deadline,
    counters,
  };
  const evidence: CheckedCandidate[] = [];
  const issues: GroupIssue[] = [];
  let unchecked = 0;
  const collect = (r: OperationResult) => {
    evidence.push(...r.candidates);
    unchecked += r.unchecked;
    if (r.issue) issues.push(r.issue);
  };
  try {
    for (const r of await Promise.all(plan.exact.map((domain) => exactLookup(ctx, domain)))) collect(r);
    const exhausted = new Set<string | undefined>();
    for (const page of plan.pages) {
      // A rate limit or a failed page means the shop is struggling: ask it nothing more.
      if (issues.some((i) => i.code === 'UPSTREAM_RATE_LIMITED')) break;
      if (usefulCount(evidence, input.availability, plan.suffixes) >= input.max_results) break;
      if (page.page > 1 && exhausted.has(page.tld)) continue;
      if (deadline.signal.aborted) {
        issues.push(issueFrom(`suggestion page ${page.page}, not started`, deadline.signal.reason));
        break;
      }
      const result = await suggestionPage(ctx, plan.keyword, page, plan.suffixes);
      collect(result);
      if (!result.hasNext) exhausted.add(page.tld);
      if (result.issue) break;
    }
    const pool = buildGroupPool(group, combine(evidence), {
      currency: input.currency,
      checkedAt: deps.clock().toISOString(),
      shopOrigin: deps.shopOrigin,
    });
    const error = groupErrorFrom(issues, pool.pool.length, unchecked);
    let output: GroupOutput;
    if (error !== null && pool.pool.length === 0) {
      output = failedGroupOutput(group, error);
    } else {
      const exactDomain = group.target.kind === 'fqdn' ? group.target.domain : undefined;
      const criteria = input.relevance_criteria;
      const outcome = isRelevanceRequested(criteria)
        ? await deps.decide(
            buildRelevanceInput({ criteria, pool: pool.pool, policy: input.availability, exactDomain }),
            { signal: deadline.signal, remainingMs: deadline.remainingMs(), meter: deps.meter },
          )
        : undefined;
      output = buildGroupOutput({ group, pool, outcome, error });
    }
    const status = output.error === null ? 'complete' : output.partial ? 'partial' : 'failed';
    return {
      output,
      diagnostics: {
        index: group.index,
        mode: plan.mode,
        attempts: counters,
        elapsedMs: performance.now() - started,
        status,
      },
    };
  } finally {
    deadline.dispose();
  }
}
