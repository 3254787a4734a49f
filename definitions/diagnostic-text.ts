/** The text forms of diagnostics, for terminals and messages (no schema: cheap to load). */
import type { Diagnostic } from './diagnostics.js';

/**
 * `line:column: CODE message`, and the suggestions the message does not already name (a step
 * id's: for the person reading their own file, never in an API message).
 */
export function diagnosticText(
  d: Pick<Diagnostic, 'line' | 'column' | 'code' | 'message' | 'suggestions'>,
): string {
  const guess =
    d.suggestions?.length && !d.message.includes('Did you mean')
      ? ` (did you mean ${d.suggestions.join(', ')}?)`
      : '';
  return `${d.line}:${d.column}: ${d.code} ${d.message}${guess}`;
}

/** Formats diagnostics for a terminal: one `file:line:col: CODE message` line each. */
export function formatDiagnostics(fileName: string, diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${fileName}:${diagnosticText(d)}`);
}
