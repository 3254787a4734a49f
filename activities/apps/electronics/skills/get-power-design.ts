/**
 * `electronics.get_power_design` (long-running): the sanitised schematic picture and the
 * normalised parts list of one solution. Stages: `fetching_schematic`, `fetching_parts`.
 */
import { CANDIDATES_NOTE } from '../upstream/designs.js';
import { createPowerService } from '../upstream/service.js';
import type { SkillDeadlines } from '../../../policy.js';
import type { Platform, SkillImplementation } from '../../../registry/types.js';
import type { ElectronicsAppConfig } from '../config.js';
import { schematicEmbedFile } from './embed-files.js';
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
      const id = input.requests[0]!.solution_id;
      const call = powerContext(ctx);
      ctx.heartbeat({ stage: 'fetching_schematic' });
      const schematic = await service.schematic(id, call);
      ctx.heartbeat({ stage: 'fetching_parts' });
      const parts = await service.parts(id, call);
      return { solution_id: id, schematic, parts, part_count: parts.length, note: CANDIDATES_NOTE };
    },
    toWorkflowOutput: (output) => ({
      results: output.parts,
      result_count: output.part_count,
      schematic: output.schematic,
      raw: output,
    }),
    previews: (output) => [
      { solution_id: output.solution_id, part_count: output.part_count, title: output.schematic.title },
    ],
    embedFile: (format, output) => schematicEmbedFile(format, output.schematic),
  };
}

export const getPowerDesign = defineSkill({
  id: 'get_power_design',
  title: 'Get power design',
  description:
    'The sanitised schematic picture (with metadata, not a netlist) and the normalised parts list of one solution id from electronics.search_power_designs. Long-running: answers 202 with task_id and embed_id.',
  capabilities: readOnlyCapabilities('async'),
  anonymousAccess: 'none',
  pricing: { creditsPerRequest: 1, notes: 'One credit per design.' },
  providers: ['power'],
  policy: 'long-running',
  primaryFields: ['solution_id'],
  create: createGetPowerDesignSkill,
});
