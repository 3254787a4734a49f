/**
 * What one group asks upstream, decided before any
 * request: an FQDN gets one exact lookup; a keyword with `tlds` gets bounded exact lookups
 * (keyword.tld per requested extension) and then suggestion pages to fill; a keyword without
 * `tlds` gets suggestion pages with no extension filter, so the shop's own ranking of
 * extensions shows. A suggestion request carries at most one extension, never a comma list.
 * Pure.
 */
import { MAX_EXACT_LOOKUPS, type AvailabilityPolicy, type PreparedGroup } from './input.js';
import type { CheckedCandidate } from './joiner.js';
import { checkDomainName, matchesSuffixes } from './names.js';

/** Suggestion pages per group, in total. */
export const MAX_SUGGEST_PAGES = 2;
/** One suggestion request: one keyword, one extension (undefined: no filter), one page. */
export interface PagePlan {
  tld: string | undefined;
  page: number;
}

export type SearchMode = 'exact' | 'keyword_tlds' | 'keyword';

/** The upstream plan of one group. */
export interface SearchPlan {
  mode: SearchMode;
  /** Canonical ASCII names for exact lookups, in request order (≤ 20). */
  exact: string[];
  /** The keyword sent to the suggestion search (empty in exact mode). */
  keyword: string;
  /** Suggestion pages in the order they may be requested (≤ 2), each only if still needed. */
  pages: PagePlan[];
  /** Requested extensions, enforced on suggestions; undefined when none were requested. */
  suffixes: readonly string[] | undefined;
}

/**
 * The pages for a keyword: page 1 of each extension in request order, then page 2 of each,
 * cut to {@link MAX_SUGGEST_PAGES}. One extension gives pages 1 and 2 of it; two or more give
 * page 1 of the first two (later extensions are covered by their exact lookups only).
 */
export function suggestPages(tlds: readonly (string | undefined)[]): PagePlan[] {
  const pages: PagePlan[] = [];
  for (let page = 1; page <= MAX_SUGGEST_PAGES; page++) {
    for (const tld of tlds) pages.push({ tld, page });
  }
  return pages.slice(0, MAX_SUGGEST_PAGES);
}

/** keyword.tld for each requested extension, canonical, deduplicated, at most 20. */
export function exactNames(keywordAscii: string, tlds: readonly string[]): string[] {
  const names = new Set<string>();
  for (const tld of tlds) {
    const name = checkDomainName(`${keywordAscii}.${tld}`);
    if (name.ok) names.add(name.ascii);
  }
  return [...names].slice(0, MAX_EXACT_LOOKUPS);
}

/** Plans one prepared group. */
export function planSearch(group: PreparedGroup): SearchPlan {
  const { target, input } = group;
  if (target.kind === 'fqdn') {
    return { mode: 'exact', exact: [target.domain], keyword: '', pages: [], suffixes: input.tlds };
  }
  const tlds = input.tlds ?? [];
  if (tlds.length > 0) {
    return {
      mode: 'keyword_tlds',
      exact: exactNames(target.keyword_ascii, tlds),
      keyword: target.keyword,
      pages: suggestPages(tlds),
      suffixes: tlds,
    };
  }
  return {
    mode: 'keyword',
    exact: [],
    keyword: target.keyword,
    pages: suggestPages([undefined]),
    suffixes: undefined,
  };
}

/**
 * How many distinct checked names could fill a result slot under the policy: available ones
 * (in-use ones too for `all`), within the requested extensions. Unknown checks never count.
 */
export function usefulCount(
  candidates: readonly CheckedCandidate[],
  policy: AvailabilityPolicy,
  suffixes: readonly string[] | undefined,
): number {
  const useful = new Set<string>();
  for (const c of candidates) {
    if (!matchesSuffixes(c.domain, suffixes)) continue;
    if (c.availability === 'available' || (policy === 'all' && c.availability === 'unavailable')) {
      useful.add(c.domain);
    }
  }
  return useful.size;
}
