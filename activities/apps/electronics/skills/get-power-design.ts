/**
 * `electronics.get_power_design` (long-running): the sanitised schematic picture and the
 * normalised parts list of one to five solutions, fetched concurrently. Stages:
 * `fetching_schematic`, `fetching_parts`.
 */
import { CANDIDATES_NOTE } from '../upstream/designs.js';
import { createPowerService } from '../upstream/service.js';
import type { SkillDeadlines } from '../../../policy.js';
import type { Platform, SkillImplementation } from '../../../registry/types.js';
import type { ElectronicsAppConfig } from '../config.js';
import { designAssetFile, schematicEmbedFile } from './embed-files.js';
import {
  DesignRequestSchema,
  DesignWorkflowOutputSchema,
  GetPowerDesignInputSchema,
  GetPowerDesignOutputSchema,
  type DesignWorkflowOutput,
  type GetPowerDesignInput,
  type GetPowerDesignOutput,
} from './schemas.js';
import { powerContext } from './search-power-designs.js';
import { defineSkill, readOnlyCapabilities } from '../../../registry/define.js';
import { eachItem } from '../../../runtime/each-item.js';

export type GetPowerDesignSkill = SkillImplementation<
  GetPowerDesignInput,
  GetPowerDesignOutput,
  DesignWorkflowOutput
>;

/** Builds the skill. */
function createGetPowerDesignSkill(
  platform: Platform<ElectronicsAppConfig>,
  deadlines: SkillDeadlines,
): GetPowerDesignSkill {
  const service = createPowerService(platform.config, deadlines, platform.store);
  return {
    input: GetPowerDesignInputSchema,
    requestItem: DesignRequestSchema,
    defaults: {},
    output: GetPowerDesignOutputSchema,
    workflowOutput: DesignWorkflowOutputSchema,
    async run(input, ctx) {
      const { charge } = powerContext(ctx);
      const results = await eachItem(
        input.requests,
        async ({ solution_id: id }, _, signal) => {
          ctx.heartbeat({ stage: 'fetching_schematic' });
          const schematic = await service.schematic(id, { signal, charge });
          ctx.heartbeat({ stage: 'fetching_parts' });
          const parts = await service.parts(id, { signal, charge });
          return { solution_id: id, schematic, parts, part_count: parts.length };
        },
        { signal: ctx.signal },
      );
      return { results, note: CANDIDATES_NOTE };
    },
    toWorkflowOutput: (output) => {
      const results = output.results.flatMap((d, i) =>
        d.parts.map((part) => ({ ...part, request_index: i, solution_id: d.solution_id })),
      );
      return {
        results,
        result_count: results.length,
        schematic: output.results[0]!.schematic,
        designs: output.results.map(({ parts: _parts, ...design }) => design),
        raw: output,
      };
    },
    previews: (output) =>
      output.results.map((d) => ({
        solution_id: d.solution_id,
        part_count: d.part_count,
        title: d.schematic.title,
      })),
    // The embed's file is the first design's schematic.
    embedFile: (format, output) => schematicEmbedFile(format, output.results[0]?.schematic ?? null),
    // Assets: each design's schematic and parts list, by its index in the request.
    assetFile: (asset, output, design) => designAssetFile(asset, output.results[design]),
  };
}

export const getPowerDesign = defineSkill({
  id: 'get_power_design',
  title: 'Get power design',
  description:
    'Get the schematic picture and the parts list of up to five designs found by the power design search. This takes a while; its progress is shown as it goes.',
  capabilities: readOnlyCapabilities('async'),
  anonymousAccess: 'none',
  pricing: { creditsPerRequest: 1, notes: 'One credit per design.' },
  providers: ['power'],
  policy: 'long-running',
  primaryFields: ['solution_id'],
  create: createGetPowerDesignSkill,
});
