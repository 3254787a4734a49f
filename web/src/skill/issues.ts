/**
 * The API's 400 `INVALID_PARAMETER` issues (`details.issues[]`, each `{ path, message,
 * location }` with paths like `requests[0].vout[0]`) placed next to the form field they name.
 */
import { leafFields, type Field } from './fields.js';

/** Issues for a request's field, keyed `<request index>:<field key>`, and those no field matched. */
export interface PlacedIssues {
  byField: Record<string, string>;
  other: string[];
}

/** Splits `requests[0].a.b[2]` into `['requests', 0, 'a', 'b', 2]`. */
export function pathSegments(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g))
    out.push(m[2] !== undefined ? Number(m[2]) : (m[1] as string));
  return out;
}

/** The form key for one `details.issues[]` entry. */
export function fieldKey(issue: unknown, fields: Field[]): string | null {
  if (!issue || typeof issue !== 'object') return null;
  const path = (issue as { path?: unknown }).path;
  if (typeof path !== 'string') return null;
  const [head, index, ...rest] = pathSegments(path);
  if (head !== 'requests' || typeof index !== 'number') return null;
  const names = rest.filter((s): s is string => typeof s === 'string');
  const leaves = leafFields(fields);
  for (let n = names.length; n > 0; n--) {
    const key = names.slice(0, n).join('.');
    if (leaves.some((f) => f.key === key)) return `${index}:${key}`;
  }
  return null;
}

/** Places every issue of an error's `details` next to its field when one matches. */
export function placeIssues(details: Record<string, unknown>, fields: Field[]): PlacedIssues {
  const placed: PlacedIssues = { byField: {}, other: [] };
  const issues = Array.isArray(details.issues) ? (details.issues as unknown[]) : [];
  for (const issue of issues) {
    const raw = (issue as { message?: unknown } | null)?.message;
    const message = typeof raw === 'string' ? raw : 'is invalid';
    const key = fieldKey(issue, fields);
    if (key) placed.byField[key] = placed.byField[key] ? `${placed.byField[key]}; ${message}` : message;
    else {
      const path = (issue as { path?: unknown } | null)?.path;
      placed.other.push(typeof path === 'string' ? `${path}: ${message}` : message);
    }
  }
  return placed;
}
