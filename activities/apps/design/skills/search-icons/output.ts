/**
 * Output of `design.search_icons`. Metadata only: never SVG markup,
 * PNG bytes, data URLs, raw upstream answers, credentials or preview-server URLs. `svg_url` is
 * the service's own sanitising route.
 */
import { z } from 'zod';
import { RelevanceAppliedSchema } from '../../../../decision/relevance.js';
import { LICENSE_POLICIES } from '../../upstream/licenses.js';

export const IconResultSchema = z
  .object({
    id: z.string().describe('`<prefix>:<name>`.'),
    prefix: z.string().describe('Collection prefix.'),
    name: z.string().describe('Icon name within the collection.'),
    display_name: z.string().describe('The name in words ("arrow-left" → "Arrow left").'),
    collection: z.string().describe('The collection name.'),
    license: z
      .object({
        spdx: z.string().nullable().describe('SPDX id as the collection declares it; null when unknown.'),
        title: z.string().nullable(),
        url: z.string().nullable(),
      })
      .describe('The collection license.'),
    author: z
      .object({ name: z.string(), url: z.string().nullable() })
      .nullable()
      .describe('Collection author.'),
    width: z.number().positive().describe('Icon width in SVG units (aliases resolve to their parent).'),
    height: z.number().positive().describe('Icon height in SVG units.'),
    svg_url: z.string().describe("The service's sanitised SVG route for this icon."),
  })
  .describe('One icon (metadata only).');
export type IconResult = z.output<typeof IconResultSchema>;

export const IconSearchOutputSchema = z
  .object({
    icons: z
      .array(z.string())
      .describe(
        'The identifiers (`<prefix>:<name>`) of `results`, in order; an empty array when nothing matched.',
      ),
    results: z.array(IconResultSchema).describe('Matching icons, best first; empty when nothing matched.'),
    result_count: z.number().int().nonnegative(),
    license_policy: z.enum(LICENSE_POLICIES),
    hidden_by_license: z.number().int().nonnegative().describe('Candidates the license policy removed.'),
    relevance_applied: RelevanceAppliedSchema,
  })
  .describe('The answer to one request.');
export type IconSearchOutput = z.output<typeof IconSearchOutputSchema>;

export const SearchIconsOutputSchema = z
  .object({ results: z.array(IconSearchOutputSchema).describe('One entry per request, in request order.') })
  .describe('Output of design.search_icons.');
export type SearchIconsOutput = z.output<typeof SearchIconsOutputSchema>;

export const WorkflowOutputSchema = z
  .object({
    results: z
      .array(IconResultSchema.extend({ request_index: z.number().int().nonnegative() }))
      .describe('Icons across all requests, in request order.'),
    result_count: z.number().int().nonnegative().describe('Length of results.'),
    raw: SearchIconsOutputSchema.describe('Every request with its own results and counts.'),
  })
  .describe('Workflow-visible output of design.search_icons.');
export type WorkflowOutput = z.output<typeof WorkflowOutputSchema>;

/** Flattens the per-request answers for later workflow steps. */
export function toWorkflowOutput(output: SearchIconsOutput): WorkflowOutput {
  const results = output.results.flatMap((r, request_index) =>
    r.results.map((icon) => ({ ...icon, request_index })),
  );
  return { results, result_count: results.length, raw: output };
}

/** Short previews for a quick REST answer: one per icon, metadata only. */
export function buildPreviews(output: SearchIconsOutput): { title: string; subtitle: string; id: string }[] {
  return output.results.flatMap((r) =>
    r.results.map((icon) => ({
      id: icon.id,
      title: icon.display_name,
      subtitle: `${icon.collection} · ${icon.license.spdx ?? 'unknown license'}`,
    })),
  );
}
