/**
 * `hosting.search_domains` as a registered skill (activities/apps/hosting/app.ts). The module
 * loads without SHOP_URL (the API and worker start a simulator when it is unset and pass its URL
 * in the config); a call without any shop URL fails with SERVICE_UNAVAILABLE. Per call it opens
 * one shop client (its lazy proxy agent is closed afterwards) and one limiter of 2 slots.
 */
import { errors } from '../../../../../lib/errors/errors.js';
import { invalidParameter } from '../../../../../lib/errors/skillflow-error.js';
import { PlatformFailure } from './platform-failure.js';
import { createDecisionClient } from '../../../../decision/upstream/client.js';
import { createShopClient } from '../../upstream/index.js';
import type { SkillDeadlines } from '../../../../policy.js';
import type { Platform, SkillContext, SkillImplementation } from '../../../../registry/types.js';
import type { HostingAppConfig } from '../../config.js';
import {
  INPUT_DEFAULTS,
  SearchDomainsInputSchema,
  SearchGroupSchema,
  type SearchDomainsInput,
} from './input.js';
import {
  SearchDomainsOutputSchema,
  toWorkflowOutput,
  WorkflowOutputSchema,
  type SearchDomainsOutput,
  type WorkflowOutput,
} from './output.js';
import { buildPreviews } from './previews.js';
import { isRelevanceRequested } from './relevance.js';
import { createRelevanceDecider } from './relevance-decision.js';
import {
  searchDomains,
  searchLimits,
  totalFailureError,
  type SearchDiagnostics,
  type SearchLimits,
} from './search-domains.js';

/** Knobs for tests and the benchmark; production uses the defaults. */
export interface SearchDomainsSkillOptions {
  /** Source of `checked_at`. Default `() => new Date()`. */
  clock?: () => Date;
  limits?: Partial<SearchLimits>;
  /** Receives each call's diagnostics (counts and timing only). */
  onDiagnostics?: (diagnostics: SearchDiagnostics) => void;
}

export type SearchDomainsSkill = SkillImplementation<SearchDomainsInput, SearchDomainsOutput, WorkflowOutput>;

function summary(d: SearchDiagnostics): Record<string, unknown> {
  const count = (status: string) => d.groups.filter((g) => g.status === status).length;
  return {
    skill: 'hosting.search_domains',
    groups: d.groups.length,
    partial_groups: count('partial'),
    failed_groups: count('failed'),
    operations: d.limiter.operations,
    proxied_attempts: d.groups.reduce((n, g) => n + g.attempts.proxy, 0),
    max_in_flight: d.limiter.maxInFlight,
    wall_ms: Math.round(d.wallMs),
  };
}

/**
 * The signal of one call. On the anonymous route nothing may wait for an upstream: the
 * first 429 ends the call at once with UPSTREAM_RATE_LIMITED and its Retry-After; in-flight
 * requests are aborted. Elsewhere the call's Retry-After gate waits within each group deadline.
 */
function callSignal(ctx: SkillContext): {
  signal: AbortSignal;
  onRateLimited: ((waitMs: number, fromShop: boolean) => void) | undefined;
  dispose: () => void;
} {
  if (!ctx.anonymous) return { signal: ctx.signal, onRateLimited: undefined, dispose: () => undefined };
  const controller = new AbortController();
  const onAbort = () => controller.abort(ctx.signal.reason);
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    onRateLimited: (waitMs, fromShop) => {
      const rule = fromShop ? 'The shop asked us to slow down' : 'The shop provider limit is used up';
      controller.abort(errors.upstreamRateLimited({ rule, provider: 'shop', retryAfterMs: waitMs }));
    },
    dispose: () => ctx.signal.removeEventListener('abort', onAbort),
  };
}

/**
 * Creates the skill with its policy's deadlines (resolved at registry load) and explicit options
 * (tests, benchmark).
 */
export function createSearchDomainsSkill(
  platform: Platform<HostingAppConfig>,
  deadlines: SkillDeadlines,
  options: SearchDomainsSkillOptions = {},
): SearchDomainsSkill {
  const { config, secrets, logger } = platform;
  const decision = config.DECISION_URL
    ? createDecisionClient({ config, secrets, timeoutMs: deadlines.decisionTimeoutMs })
    : undefined;
  const decide = createRelevanceDecider(decision, config.DECISION_MODEL, deadlines.decisionTimeoutMs);
  const limits = searchLimits(deadlines, options.limits);
  const clock = options.clock ?? (() => new Date());

  async function run(input: SearchDomainsInput, ctx: SkillContext): Promise<SearchDomainsOutput> {
    if (ctx.anonymous && input.requests.length !== 1) {
      throw invalidParameter([
        { path: 'requests', message: 'The anonymous route accepts exactly one request.' },
      ]);
    }
    if (!config.SHOP_URL) {
      throw errors.serviceUnavailable('Domain search is not configured: no shop URL (SHOP_URL).', {
        skill: 'hosting.search_domains',
      });
    }
    const shop = createShopClient({
      shopUrl: config.SHOP_URL,
      proxyUrl: config.PROXY_URL,
      secrets,
      idleTimeoutMs: limits.idleTimeoutMs,
    });
    const call = callSignal(ctx);
    try {
      const { output, diagnostics } = await searchDomains(input, {
        shop,
        proxyEnabled: config.PROXY_URL !== undefined,
        decide,
        clock,
        shopOrigin: shop.origin,
        limits,
        signal: call.signal,
        meter: ctx.meter,
        onRateLimited: call.onRateLimited,
      });
      options.onDiagnostics?.(diagnostics);
      // Counts and timing only: queries and results never reach a log.
      logger.debug(summary(diagnostics), 'domain search finished');
      const failure = totalFailureError(output);
      if (failure) throw failure;
      return output;
    } catch (err) {
      // The platform's own failure ends the call as itself, never as an upstream failure.
      if (err instanceof PlatformFailure) throw err.failure;
      throw err;
    } finally {
      call.dispose();
      await shop.close();
    }
  }

  /** The shop always; the decision helper when a group asks for relevance and one is configured. */
  function providerUses(input: SearchDomainsInput) {
    const relevance = input.requests.some((r) => isRelevanceRequested(r.relevance_criteria));
    return [
      { provider: 'shop' },
      ...(relevance && decision ? [{ provider: 'decision', model: config.DECISION_MODEL }] : []),
    ];
  }

  return {
    input: SearchDomainsInputSchema,
    requestItem: SearchGroupSchema,
    defaults: { ...INPUT_DEFAULTS },
    output: SearchDomainsOutputSchema,
    workflowOutput: WorkflowOutputSchema,
    run,
    toWorkflowOutput,
    previews: buildPreviews,
    providerUses,
  };
}
