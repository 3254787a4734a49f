/** Diagnostics of POST /v1/workflows/validate as the editor shows them. Pure, unit-tested. */
import type { ValidationResult } from '../../../sdk/generated.js';

export type Diagnostic = ValidationResult['diagnostics'][number];

/**
 * `Line 7, column 20: <message>`: what the list and the screen reader say, with the closest known
 * names when the message does not name them already (an unknown step's).
 */
export function describeDiagnostic(d: Diagnostic): string {
  const guess =
    d.suggestions?.length && !d.message.includes('Did you mean')
      ? ` Did you mean ${d.suggestions.join(' or ')}?`
      : '';
  return `Line ${d.line}, column ${d.column}: ${d.message}${guess}`;
}

/** The character offset of a 1-based line and column in `source`, clamped to the text. */
export function offsetOf(source: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = source.indexOf('\n', offset);
    if (next === -1) return source.length;
    offset = next + 1;
  }
  const end = source.indexOf('\n', offset);
  const lineEnd = end === -1 ? source.length : end;
  return Math.min(offset + Math.max(column - 1, 0), lineEnd);
}
