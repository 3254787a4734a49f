/**
 * The normalised power-design shapes the skills return: one ranked
 * solution, the schematic picture with its metadata, and the parts list. Upstream field names
 * stay in ./mapping.ts.
 */
import { z } from 'zod';

export const PowerSolutionSchema = z.object({
  id: z.string().describe('Solution id, for electronics.get_power_design.'),
  rank: z.number().int().describe('Provider ranking, 1 = best for the optimisation goal.'),
  considerations: z.string().describe('Human-readable design description from the provider.'),
  part_number: z.string().describe('Orderable part number of the converter device.'),
  base_product_id: z.string().describe('Base product page identifier.'),
  topology: z.string().describe('Converter topology, e.g. Buck, Boost, Flyback.'),
  bom_cost_usd: z.number().describe('Estimated parts cost in USD.'),
  efficiency: z.number().min(0).max(1).describe('Efficiency, ratio 0 to 1.'),
  footprint_mm2: z.number().describe('Estimated board area, mm².'),
  frequency_hz: z.number().describe('Switching frequency, Hz.'),
  temperature_c: z.number().describe('Estimated operating temperature, °C.'),
  source_url: z.string().describe("The manufacturer's product page (POWER_PRODUCT_ORIGIN)."),
});
export type PowerSolution = z.infer<typeof PowerSolutionSchema>;

export const SchematicSchema = z.object({
  solution_id: z.string(),
  content_type: z.literal('image/svg+xml'),
  svg: z.string().describe('The schematic picture, sanitised (lib/sanitize/svg.ts).'),
  title: z.string().nullable().describe("The picture's own title, when it has one."),
  note: z.string().describe('A picture with metadata, not a netlist.'),
});
export type Schematic = z.infer<typeof SchematicSchema>;

export const PartSchema = z.object({
  reference: z.string().nullable().describe('Reference designator on the schematic, e.g. U1.'),
  part: z.string().nullable().describe('Manufacturer part number.'),
  description: z.string().nullable(),
  quantity: z.number().int().positive(),
  value: z.string().nullable().describe('Value as the provider writes it, e.g. 10uF.'),
  manufacturer: z.string().nullable(),
  limits: z
    .object({
      voltage_v: z.number().nullable(),
      current_a: z.number().nullable(),
      power_w: z.number().nullable(),
      tolerance: z.string().nullable(),
    })
    .describe('Component ratings, null when the provider gives none.'),
});
export type Part = z.infer<typeof PartSchema>;

/** What the output says about every result. */
export const CANDIDATES_NOTE =
  'These are candidate reference designs, not PCB layouts; verify every design before use. The schematic is a picture with metadata, not a netlist.';
export const SCHEMATIC_NOTE = 'A picture with metadata, not a netlist.';
