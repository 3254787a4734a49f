/**
 * The outline of a definition as far as it compiles: every step id in document order (inner
 * steps included) with the fields of its workflow output. Editors complete `{{steps.<id>.`
 * references from it; it comes from the same step symbols the reference checker uses.
 */
import { z } from 'zod';
import { shapeFields } from '../schema/schema-path.js';
import type { DocPath, SourceMap } from '../source/source-map.js';
import type { StepSymbol } from './reference-checker.js';

export const OutlineSchema = z
  .object({
    steps: z.array(
      z.object({
        id: z.string(),
        line: z.number().int().describe('The 1-based line where the step starts.'),
        fields: z.array(z.object({ name: z.string(), type: z.string() })),
      }),
    ),
  })
  .describe(
    "The definition's steps in document order (inner steps included), each with the fields of its output and their types; empty when the text does not parse.",
  );

export type Outline = z.infer<typeof OutlineSchema>;

/** The outline of the collected steps, in the order they start in the source. */
export function outlineOf(
  symbols: ReadonlyMap<string, StepSymbol & { path: DocPath }>,
  map: SourceMap,
): Outline {
  const steps = [...symbols].map(([id, symbol]) => {
    const offset = map.offsetOf(symbol.path);
    return { id, line: map.lineColumn(offset).line, offset, fields: shapeFields(symbol.output) };
  });
  steps.sort((a, b) => a.offset - b.offset);
  return { steps: steps.map(({ id, line, fields }) => ({ id, line, fields })) };
}

export const EMPTY_OUTLINE: Outline = { steps: [] };
