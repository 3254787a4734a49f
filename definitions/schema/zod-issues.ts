/** Turns zod issues into positioned diagnostics. */
import type { z } from 'zod';
import type { Diagnostic, DiagnosticCode } from '../diagnostics.js';
import { followPath } from '../runtime/lookup.js';
import type { DocPath, SourceMap } from '../source/source-map.js';

/** How issues of one validation are reported. */
export interface IssueContext {
  map: SourceMap;
  /** Path of the validated value inside the document. */
  base: DocPath;
  /** The validated value (to tell a missing field from a wrong one). */
  value: unknown;
  /** Report every issue under this code instead of the structural ones (skill inputs). */
  code?: DiagnosticCode;
}

/** Maps each issue to a diagnostic at the offending node (or its key, or its parent). */
export function issuesToDiagnostics(issues: readonly z.core.$ZodIssue[], ctx: IssueContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const issue of issues) {
    const rel = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    const path = [...ctx.base, ...rel];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const message = 'Unknown field: it is not defined here.';
        out.push(ctx.map.diagnostic(ctx.code ?? 'UNKNOWN_FIELD', message, [...path, key], { key: true }));
      }
      continue;
    }
    const name = rel.length > 0 ? String(rel[rel.length - 1]) : undefined;
    // A missing union-typed field (a decide step's fallback) is reported as missing too.
    const typed = issue.code === 'invalid_type' || issue.code === 'invalid_union';
    if (typed && name !== undefined && isMissing(ctx.value, rel)) {
      const message = `Missing required field "${name}".`;
      out.push(ctx.map.diagnostic(ctx.code ?? 'MISSING_FIELD', message, path.slice(0, -1)));
      continue;
    }
    // The path names the field (it may be a key the author chose), so the message does not.
    const code = ctx.code ?? (issue.code === 'invalid_type' ? 'INVALID_TYPE' : 'INVALID_VALUE');
    out.push(ctx.map.diagnostic(code, issue.message, path));
  }
  return out;
}

function isMissing(root: unknown, rel: ReadonlyArray<string | number>): boolean {
  const parent = followPath(root, rel.slice(0, -1));
  const last = rel[rel.length - 1];
  if (last === undefined || typeof parent !== 'object' || parent === null) return false;
  return Array.isArray(parent) ? Number(last) >= parent.length : !Object.hasOwn(parent, String(last));
}
