/**
 * The electronics skills' embed files and generated assets: the sanitised schematic as the
 * `preview` picture and the `schematic` asset (SVG), a design's parts list as the `parts` asset
 * (JSON).
 */
import type { Part, Schematic } from '../upstream/designs.js';
import type { AssetFile, EmbedFile, EmbedFormat, SkillAsset } from '../../../registry/types.js';

/** `preview` is the schematic SVG when there is one; the other formats stay the default JSON. */
export function schematicEmbedFile(format: EmbedFormat, schematic: Schematic | null): EmbedFile | undefined {
  if (format !== 'preview' || !schematic) return undefined;
  return { contentType: 'image/svg+xml; charset=utf-8', body: schematic.svg };
}

/** One design's assets: its schematic SVG, or its parts list as JSON `{ solution_id, part_count, parts }`. */
export function designAssetFile(
  asset: SkillAsset,
  design: { solution_id: string; schematic: Schematic | null; parts?: Part[] } | undefined,
): AssetFile | undefined {
  if (!design) return undefined;
  if (asset === 'schematic')
    return design.schematic
      ? { contentType: 'image/svg+xml; charset=utf-8', body: design.schematic.svg, extension: 'svg' }
      : undefined;
  if (!design.parts) return undefined;
  const body = JSON.stringify({
    solution_id: design.solution_id,
    part_count: design.parts.length,
    parts: design.parts,
  });
  return { contentType: 'application/json; charset=utf-8', body, extension: 'json' };
}
