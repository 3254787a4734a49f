/**
 * `electronics.search_power_designs` (long-running): ranked reference designs per requirement,
 * then the top-ranked design's sanitised schematic for the embed preview. Each stage is named
 * in a heartbeat (`checking_cache`, `querying_upstream`, `fetching_schematic`), which
 * GET /v1/tasks/{id} shows while the call runs. A non-blank `relevance_criteria` reorders (and
 * may drop) each request's solutions with one decision (./relevance.ts), stage `ranking`.
 */
import { CANDIDATES_NOTE } from '../upstream/designs.js';
import { createDecisionClient } from '../../../decision/upstream/client.js';
import { createPowerService } from '../upstream/service.js';
import type { SkillDeadlines } from '../../../policy.js';
import type { Platform, SkillContext, SkillImplementation } from '../../../registry/types.js';
import type { ElectronicsAppConfig } from '../config.js';
import { designAssetFile, schematicEmbedFile } from './embed-files.js';
import { createPowerRanker } from './relevance.js';
import {
  SearchPowerDesignsInputSchema,
  SearchPowerDesignsOutputSchema,
  SearchRequestSchema,
  SearchWorkflowOutputSchema,
  type SearchPowerDesignsInput,
  type SearchPowerDesignsOutput,
  type SearchWorkflowOutput,
} from './schemas.js';
import { defineSkill, readOnlyCapabilities } from '../../../registry/define.js';
import { eachItem } from '../../../runtime/each-item.js';

export type SearchPowerDesignsSkill = SkillImplementation<
  SearchPowerDesignsInput,
  SearchPowerDesignsOutput,
  SearchWorkflowOutput
>;

/** The call context of the power client: the call's signal, each request charged to the meter. */
export function powerContext(ctx: SkillContext) {
  return { signal: ctx.signal, charge: () => ctx.meter.charge('power') };
}

/** Builds the skill. */
function createSearchPowerDesignsSkill(
  platform: Platform<ElectronicsAppConfig>,
  deadlines: SkillDeadlines,
): SearchPowerDesignsSkill {
  const { config } = platform;
  const service = createPowerService(config, deadlines, platform.store);
  const decision = config.DECISION_URL
    ? createDecisionClient({ config, secrets: platform.secrets, timeoutMs: deadlines.decisionTimeoutMs })
    : undefined;
  const rank = createPowerRanker(decision, config.DECISION_MODEL);
  return {
    input: SearchPowerDesignsInputSchema,
    requestItem: SearchRequestSchema,
    defaults: {
      ambientTemp: 30,
      isIsolated: false,
      powerSupply: 'dc',
      optimizationSetting: 3,
      max_results: 10,
    },
    output: SearchPowerDesignsOutputSchema,
    workflowOutput: SearchWorkflowOutputSchema,
    async run(input, ctx) {
      const call = powerContext(ctx);
      const results: SearchPowerDesignsOutput['results'] = await eachItem(
        input.requests,
        async ({ max_results: max, relevance_criteria: criteria, ...requirement }, _, signal) => {
          ctx.heartbeat({ stage: 'checking_cache' });
          const found = await service.search(requirement, {
            signal,
            charge: async () => {
              ctx.heartbeat({ stage: 'querying_upstream' });
              await call.charge();
            },
          });
          if (criteria?.trim()) ctx.heartbeat({ stage: 'ranking' });
          const ranked = await rank(criteria, found.solutions, ctx.meter, signal);
          return {
            cached: found.cached,
            solutions: ranked.ordered.slice(0, max),
            relevance_applied: ranked.applied,
            warnings: ranked.warnings,
          };
        },
        { signal: ctx.signal },
      );
      const top = results.find((r) => r.solutions.length > 0)?.solutions[0];
      ctx.heartbeat({ stage: 'fetching_schematic' });
      const top_schematic = top ? await service.schematic(top.id, call) : null;
      return { results, top_schematic, note: CANDIDATES_NOTE };
    },
    toWorkflowOutput(output) {
      const results = output.results.flatMap((r, i) => r.solutions.map((s) => ({ ...s, request_index: i })));
      return { results, result_count: results.length, note: output.note, raw: output };
    },
    previews: (output) =>
      output.results.flatMap((r) =>
        r.solutions.slice(0, 3).map((s) => ({
          id: s.id,
          rank: s.rank,
          part_number: s.part_number,
          topology: s.topology,
          efficiency: s.efficiency,
          source_url: s.source_url,
        })),
      ),
    embedFile: (format, output) => schematicEmbedFile(format, output.top_schematic),
    // The one asset of a search is the top-ranked solution's schematic (no parts list).
    assetFile: (asset, output, design) =>
      design === 0 && output.top_schematic
        ? designAssetFile(asset, {
            solution_id: output.top_schematic.solution_id,
            schematic: output.top_schematic,
          })
        : undefined,
    providerUses: (input) => [
      { provider: 'power' },
      ...(decision && input.requests.some((r) => r.relevance_criteria?.trim())
        ? [{ provider: 'decision', model: config.DECISION_MODEL }]
        : []),
    ],
  };
}

export const searchPowerDesigns = defineSkill({
  id: 'search_power_designs',
  title: 'Search power designs',
  description:
    'Find power-converter reference designs for up to five sets of requirements (input voltage range, output voltage and current, isolation, ambient temperature, what to optimise for), best first; optional relevance criteria reorder them. The designs are starting points, not finished board layouts. This takes a while; its progress is shown as it goes.',
  capabilities: readOnlyCapabilities('async'),
  anonymousAccess: 'none',
  pricing: {
    creditsPerRequest: 1,
    notes: 'One credit per requirement; a cached requirement costs the same.',
  },
  providers: ['power', 'decision'],
  policy: 'long-running',
  primaryFields: ['vinMin', 'vinMax', 'vout', 'iout'],
  create: createSearchPowerDesignsSkill,
});
