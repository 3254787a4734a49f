/**
 * A skill's answer for a person: its previews as a table (one row per preview, one column per
 * field any row has a value for, unless it repeats an earlier column; numbers right-aligned),
 * then its warnings. The same lines follow
 * a quick call and a long-running call's `--wait`.
 */
import { printable } from './output.js';

/** `part_number` → `part number`. */
function heading(key: string): string {
  return key.replaceAll('_', ' ');
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number')
    return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(3)));
  if (typeof value === 'string') return printable(value.replace(/\s+/g, ' '));
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return JSON.stringify(value);
}

/** The previews as table lines (header first); no lines for no previews. */
export function previewTable(previews: readonly unknown[]): string[] {
  const rows = previews.filter((p): p is Record<string, unknown> => typeof p === 'object' && p !== null);
  if (rows.length === 0) return previews.map((p) => cell(p));
  const columns: string[] = [];
  for (const row of rows)
    for (const [key, value] of Object.entries(row))
      if (!columns.includes(key) && value !== null && value !== undefined && typeof value !== 'object')
        columns.push(key);
  // A column that repeats an earlier one in every row (a domain's Unicode form of an ASCII name) says nothing new.
  for (let i = columns.length - 1; i > 0; i--) {
    const c = columns[i]!;
    if (columns.slice(0, i).some((d) => rows.every((r) => cell(r[d]) === cell(r[c])))) columns.splice(i, 1);
  }
  const numeric = columns.map((c) =>
    rows.every((r) => r[c] === null || r[c] === undefined || typeof r[c] === 'number'),
  );
  const cells = rows.map((r) => columns.map((c) => cell(r[c])));
  const widths = columns.map((c, i) => Math.max(heading(c).length, ...cells.map((row) => row[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => (numeric[i] ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(columns.map(heading)), ...cells.map(line)];
}

/** One warning of a skill's output. */
interface Warning {
  code: string;
  message: string;
}

const isWarning = (w: unknown): w is Warning =>
  typeof w === 'object' &&
  w !== null &&
  typeof (w as Warning).code === 'string' &&
  typeof (w as Warning).message === 'string';

/**
 * The warnings of a skill's output, as lines: those of the whole answer (`warnings`) and those of
 * each request's result (`results[i].warnings`, named by their request when there are several).
 */
export function warningLines(output: unknown): string[] {
  if (typeof output !== 'object' || output === null) return [];
  const o = output as { warnings?: unknown; results?: unknown };
  const lines: string[] = [];
  if (Array.isArray(o.warnings))
    for (const w of o.warnings.filter(isWarning)) lines.push(`warning: ${w.code}: ${printable(w.message)}`);
  if (Array.isArray(o.results)) {
    const several = o.results.length > 1;
    o.results.forEach((r: unknown, i) => {
      const warnings = (r as { warnings?: unknown } | null)?.warnings;
      if (!Array.isArray(warnings)) return;
      for (const w of warnings.filter(isWarning))
        lines.push(`warning${several ? ` (request ${i + 1})` : ''}: ${w.code}: ${printable(w.message)}`);
    });
  }
  return lines;
}

/** The table and warnings of a skill call's result (`{ output, previews }`); none for anything else. */
export function skillResultLines(result: unknown): string[] {
  if (typeof result !== 'object' || result === null) return [];
  const r = result as { output?: unknown; previews?: unknown };
  if (!Array.isArray(r.previews)) return [];
  return [...previewTable(r.previews), ...warningLines(r.output)];
}
