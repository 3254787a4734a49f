/**
 * Which view shows a skill's output, chosen by the output's shape (never by app name), so a new
 * skill with the same shape gets the same view and anything else the generic one.
 */

export type ResultKind = 'domains' | 'icons' | 'articles' | 'power' | 'generic';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The per-request groups of an output (`output.results`), or [] when it has none. */
export function groups(output: unknown): Obj[] {
  return isObj(output) ? arr(output.results).filter(isObj) : [];
}

const every = (items: unknown[], test: (o: Obj) => boolean) =>
  items.length > 0 && items.every((i) => isObj(i) && test(i));
const str = (o: Obj, k: string) => typeof o[k] === 'string';

function groupKind(g: Obj): ResultKind | null {
  const inner = arr(g.results);
  if (Array.isArray(g.solutions))
    return every(g.solutions, (s) => str(s, 'id') && 'rank' in s) || g.solutions.length === 0
      ? 'power'
      : null;
  if (!Array.isArray(g.results))
    return str(g, 'title') && str(g, 'url') && str(g, 'extract') ? 'articles' : null;
  if (inner.length === 0) return null;
  if (every(inner, (r) => str(r, 'domain') && str(r, 'availability'))) return 'domains';
  if (every(inner, (r) => str(r, 'svg_url') && str(r, 'name'))) return 'icons';
  if (every(inner, (r) => str(r, 'title') && str(r, 'url'))) return 'articles';
  return null;
}

/** The view for an output: every non-empty group must agree, else `generic`. */
export function resultKind(output: unknown): ResultKind {
  const kinds = new Set<ResultKind | null>();
  let empty = 0;
  for (const g of groups(output)) {
    const k = groupKind(g);
    if (k === null && Array.isArray(g.results) && g.results.length === 0) empty++;
    else kinds.add(k);
  }
  const [only] = [...kinds];
  if (kinds.size === 1 && only) return only;
  // All groups empty (e.g. an article search with no match): a list view still fits.
  if (kinds.size === 0 && empty > 0) return 'articles';
  return 'generic';
}
