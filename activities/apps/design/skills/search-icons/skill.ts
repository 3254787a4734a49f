/**
 * `design.search_icons` as a registered skill (activities/apps/design/app.ts): quick,
 * read-only, open to guests inline. The provider is the Iconify-compatible upstream when
 * ICON_URL is set, else the offline sets, whose index is built here at registry load (startup)
 * and its build time logged. Queries and results never reach a log.
 */
import { performance } from 'node:perf_hooks';
import { errors } from '../../../../../lib/errors/errors.js';
import { SkillflowError } from '../../../../../lib/errors/skillflow-error.js';
import { createDecisionClient } from '../../../../decision/upstream/client.js';
import { iconProviderFor, offlineIndex, OFFLINE_SETS } from '../../upstream/index.js';
import type { SkillDeadlines } from '../../../../policy.js';
import type { Platform, SkillContext, SkillImplementation } from '../../../../registry/types.js';
import type { DesignAppConfig } from '../../config.js';
import {
  INPUT_DEFAULTS,
  IconSearchRequestSchema,
  SearchIconsInputSchema,
  type SearchIconsInput,
} from './input.js';
import {
  buildPreviews,
  SearchIconsOutputSchema,
  toWorkflowOutput,
  WorkflowOutputSchema,
  type SearchIconsOutput,
  type WorkflowOutput,
} from './output.js';
import { eachItem } from '../../../../runtime/each-item.js';
import { createRelevanceRanker } from './relevance.js';
import { searchIcons } from './search.js';

export type SearchIconsSkill = SkillImplementation<SearchIconsInput, SearchIconsOutput, WorkflowOutput>;

/** Builds the skill over the icon upstream (or the offline sets) and the decision helper. */
export function createSearchIconsSkill(
  platform: Platform<DesignAppConfig>,
  deadlines: SkillDeadlines,
): SearchIconsSkill {
  const { config, secrets, logger } = platform;
  const provider = iconProviderFor(config, deadlines.idleTimeoutMs, platform.store);
  if (provider.kind === 'offline') {
    const idx = offlineIndex();
    // Counts and timing only.
    logger.info(
      { sets: OFFLINE_SETS.length, icons: idx.entries.length, build_ms: Math.round(idx.buildMs) },
      'ICON_URL is unset: icon search uses the offline icon sets; index built',
    );
  }
  const decision = config.DECISION_URL
    ? createDecisionClient({ config, secrets, timeoutMs: deadlines.decisionTimeoutMs })
    : undefined;
  const rank = createRelevanceRanker(decision, config.DECISION_MODEL);
  const publicBase = config.PUBLIC_URL ?? '';

  async function run(input: SearchIconsInput, ctx: SkillContext): Promise<SearchIconsOutput> {
    const started = performance.now();
    const beforeRequest = () => ctx.meter.charge('icons');
    const results = await eachItem(
      input.requests,
      (request, _, signal) =>
        searchIcons(request, {
          provider,
          rank,
          publicBase,
          ctx: { signal, beforeRequest },
          meter: ctx.meter,
        }),
      { signal: ctx.signal },
    );
    logger.debug(
      {
        skill: 'design.search_icons',
        requests: input.requests.length,
        wall_ms: Math.round(performance.now() - started),
      },
      'icon search finished',
    );
    return { results };
  }

  return {
    input: SearchIconsInputSchema,
    requestItem: IconSearchRequestSchema,
    defaults: { ...INPUT_DEFAULTS },
    output: SearchIconsOutputSchema,
    workflowOutput: WorkflowOutputSchema,
    run: async (input, ctx) => {
      try {
        return await run(input, ctx);
      } catch (err) {
        if (err instanceof SkillflowError || ctx.signal.aborted) throw err;
        throw errors.upstreamUnavailable({ provider: 'icons', message: 'Icon search failed.' });
      }
    },
    toWorkflowOutput,
    previews: buildPreviews,
    providerUses: (input) => [
      ...(provider.kind === 'upstream' ? [{ provider: 'icons' }] : []),
      ...(decision && input.requests.some((r) => r.relevance_criteria?.trim())
        ? [{ provider: 'decision', model: config.DECISION_MODEL }]
        : []),
    ],
  };
}
