/** The electronics skills' embed files: the sanitised schematic as the `preview` picture. */
import type { Schematic } from '../upstream/designs.js';
import type { EmbedFile, EmbedFormat } from '../../../registry/types.js';

/** `preview` is the schematic SVG when there is one; the other formats stay the default JSON. */
export function schematicEmbedFile(format: EmbedFormat, schematic: Schematic | null): EmbedFile | undefined {
  if (format !== 'preview' || !schematic) return undefined;
  return { contentType: 'image/svg+xml; charset=utf-8', body: schematic.svg };
}
