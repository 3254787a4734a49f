/**
 * The API's diagnostics as CodeMirror lint diagnostics: each underlines the word (the run of
 * non-space characters) that starts at its line and column, or the character before the end of
 * a line it points past. Pure, unit-tested.
 */
import type { Diagnostic as LintDiagnostic } from '@codemirror/lint';
import { describeDiagnostic, offsetOf, type Diagnostic } from './diagnostics.js';

/** The span `d` underlines in `doc`. */
export function spanOf(doc: string, d: Diagnostic): { from: number; to: number } {
  const from = offsetOf(doc, d.line, d.column);
  const word = /^[^\s]+/.exec(doc.slice(from));
  if (word) return { from, to: from + word[0].length };
  const lineStart = doc.lastIndexOf('\n', from - 1) + 1;
  return from > lineStart ? { from: from - 1, to: from } : { from, to: from };
}

export function lintDiagnostics(doc: string, diagnostics: readonly Diagnostic[]): LintDiagnostic[] {
  return diagnostics.map((d) => ({
    ...spanOf(doc, d),
    severity: 'error',
    message: describeDiagnostic(d),
    source: d.code,
  }));
}
