/**
 * Inputs and outputs of the electronics skills (activities/apps/electronics/app.ts): the
 * requirement fields and the ranked-solution fields of the power upstream. Every rule is checked here, before any upstream request: the
 * failing path is reported (`requests[0].vinMin`), never the value.
 */
import { z } from 'zod';
import { requestList } from '../../../registry/request-items.js';
import { PartSchema, PowerSolutionSchema, SchematicSchema } from '../upstream/designs.js';
import { RelevanceAppliedSchema } from '../../../decision/relevance.js';
import { MAX_CRITERIA_LENGTH, PowerWarningSchema } from './relevance.js';

/** Power results shown in a chat: at most 20. */
export const MAX_RESULTS = 20;
export const DEFAULT_MAX_RESULTS = 10;

const volts = z.number().positive().max(1000);
const rail = (title: string, unit: string, max: number) =>
  z
    .array(z.number().positive().max(max))
    .min(1)
    .max(1, 'one rail supported')
    .meta({ title, description: `One rail, ${unit}; exactly one value.` });

export const SearchRequestSchema = z
  .object({
    vinMin: volts.meta({ title: 'Minimum input voltage (V)', description: 'Minimum input voltage, volts.' }),
    vinMax: volts.meta({
      title: 'Maximum input voltage (V)',
      description: 'Maximum input voltage, volts (at least vinMin).',
    }),
    vout: rail('Output voltage (V)', 'output volts', 1000),
    iout: rail('Output current (A)', 'output amps', 500),
    ambientTemp: z
      .number()
      .min(-55)
      .max(125)
      .default(30)
      .meta({ title: 'Ambient temperature (°C)', description: 'Ambient temperature, °C; default 30.' }),
    isIsolated: z
      .boolean()
      .default(false)
      .meta({ title: 'Isolated', description: 'Isolated conversion required; default false.' }),
    powerSupply: z
      .enum(['dc', 'ac'])
      .default('dc')
      .meta({ title: 'Input supply', description: '`dc` (default) or `ac` input.' }),
    optimizationSetting: z.number().int().min(1).max(4).default(3).meta({
      title: 'Optimise for',
      description: '1 small footprint, 2 low cost, 3 balanced (default), 4 high efficiency.',
    }),
    max_results: z
      .number()
      .int()
      .min(1)
      .max(MAX_RESULTS)
      .default(DEFAULT_MAX_RESULTS)
      .meta({ title: 'Max results', description: 'Solutions to return, 1 to 20; default 10.' }),
    relevance_criteria: z
      .string()
      .max(MAX_CRITERIA_LENGTH, `relevance_criteria is longer than ${MAX_CRITERIA_LENGTH} characters.`)
      .optional()
      .describe(
        'Free text; a non-blank value triggers one relevance decision that reorders (and may drop) the solutions.',
      ),
  })
  .strict()
  .describe('One requirement. `vinMin` must not exceed `vinMax` (400 at `vinMin` otherwise).')
  .superRefine((r, ctx) => {
    if (r.vinMin > r.vinMax)
      ctx.addIssue({ code: 'custom', path: ['vinMin'], message: 'must not exceed vinMax' });
  });

/** The `requests` list of a call: 1 to 5 items, in the order the output keeps. */
const requests = <T extends z.ZodType>(item: T, what: string) =>
  requestList(item, `One to five ${what}; the output keeps this order.`);

export const SearchPowerDesignsInputSchema = z.object({
  requests: requests(SearchRequestSchema, 'requirements, searched concurrently'),
});
export type SearchPowerDesignsInput = z.output<typeof SearchPowerDesignsInputSchema>;

const note = z.string().describe('Candidates, not PCB layouts; the schematic is a picture, not a netlist.');

export const SearchPowerDesignsOutputSchema = z.object({
  results: z
    .array(
      z.object({
        cached: z.boolean().describe('Served from the requirement cache (no upstream request).'),
        solutions: z
          .array(PowerSolutionSchema)
          .describe('Best first: provider rank, or the relevance order when relevance_applied is applied.'),
        relevance_applied: RelevanceAppliedSchema,
        warnings: z.array(PowerWarningSchema).describe('Empty unless the relevance ranking was not applied.'),
      }),
    )
    .describe('One entry per request, in order.'),
  top_schematic: SchematicSchema.nullable().describe(
    "The top-ranked solution's sanitised schematic (first request with a solution), or null.",
  ),
  note,
});
export type SearchPowerDesignsOutput = z.infer<typeof SearchPowerDesignsOutputSchema>;

export const SearchWorkflowOutputSchema = z
  .object({
    results: z
      .array(PowerSolutionSchema.extend({ request_index: z.number().int() }))
      .describe('Every solution of every request, ranked within each request.'),
    result_count: z.number().int().nonnegative(),
    note,
    raw: SearchPowerDesignsOutputSchema,
  })
  .describe('Workflow-visible output of electronics.search_power_designs.');
export type SearchWorkflowOutput = z.infer<typeof SearchWorkflowOutputSchema>;

export const DesignRequestSchema = z
  .object({
    solution_id: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,200}$/, 'must be a solution id from search_power_designs')
      .describe('A solution id from electronics.search_power_designs.'),
  })
  .strict();

export const GetPowerDesignInputSchema = z.object({
  requests: requests(DesignRequestSchema, 'solution ids, fetched concurrently'),
});
export type GetPowerDesignInput = z.output<typeof GetPowerDesignInputSchema>;

export const PowerDesignSchema = z.object({
  solution_id: z.string(),
  schematic: SchematicSchema,
  parts: z.array(PartSchema).describe('The normalised parts list.'),
  part_count: z.number().int().nonnegative(),
});

export const GetPowerDesignOutputSchema = z.object({
  results: z.array(PowerDesignSchema).describe('One design per request, in order.'),
  note,
});
export type GetPowerDesignOutput = z.infer<typeof GetPowerDesignOutputSchema>;

export const DesignWorkflowOutputSchema = z
  .object({
    results: z
      .array(PartSchema.extend({ request_index: z.number().int(), solution_id: z.string() }))
      .describe("Every design's parts list, in request order."),
    result_count: z.number().int().nonnegative(),
    schematic: SchematicSchema.describe("The first request's schematic."),
    designs: z
      .array(z.object({ solution_id: z.string(), schematic: SchematicSchema, part_count: z.number().int() }))
      .describe('Each design without its parts, in request order.'),
    raw: GetPowerDesignOutputSchema,
  })
  .describe('Workflow-visible output of electronics.get_power_design.');
export type DesignWorkflowOutput = z.infer<typeof DesignWorkflowOutputSchema>;
