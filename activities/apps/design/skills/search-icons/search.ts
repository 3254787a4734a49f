/**
 * One icon search against a provider: candidates in provider order, the collection and license
 * filters, the optional relevance reordering, the limit, then sizes for what is left.
 */
import type { IconCallContext, IconProvider } from '../../upstream/provider.js';
import type { IconCollection, IconRef } from '../../upstream/provider.js';
import { iconVersion } from '../../icon-version.js';
import { licenseAllowed } from '../../upstream/licenses.js';
import type { IconSearchRequest } from './input.js';
import type { IconResult, IconSearchOutput } from './output.js';
import type { RelevanceRanker } from './relevance.js';
import type { UpstreamMeter } from '../../../../registry/types.js';

/**
 * The route that serves a sanitised SVG; `base` is PUBLIC_URL or empty (a relative URL);
 * `version` (icon-version.ts) makes it a versioned URL, cached for good.
 */
export function svgUrl(base: string, prefix: string, name: string, version?: string): string {
  const url = `${base.replace(/\/+$/u, '')}/v1/apps/design/icons/upstream/${prefix}/${name}.svg`;
  return version ? `${url}?v=${version}` : url;
}

/** "arrow-left-2" → "Arrow left 2". */
export function displayName(name: string): string {
  const words = name.split('-').join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Candidates asked of the provider: enough to survive the license and collection filters. */
export function candidateCount(limit: number): number {
  return Math.min(999, Math.max(64, limit * 4));
}

function toResult(
  ref: IconRef,
  c: IconCollection | undefined,
  size: { width: number; height: number },
  base: string,
  version: string | undefined,
): IconResult {
  return {
    id: `${ref.prefix}:${ref.name}`,
    prefix: ref.prefix,
    name: ref.name,
    display_name: displayName(ref.name),
    collection: c?.name ?? ref.prefix,
    license: {
      spdx: c?.license?.spdx ?? null,
      title: c?.license?.title ?? null,
      url: c?.license?.url ?? null,
    },
    author: c?.author ? { name: c.author.name, url: c.author.url ?? null } : null,
    width: size.width,
    height: size.height,
    svg_url: svgUrl(base, ref.prefix, ref.name, version),
  };
}

export async function searchIcons(
  request: IconSearchRequest,
  deps: {
    provider: IconProvider;
    rank: RelevanceRanker;
    publicBase: string;
    ctx: IconCallContext;
    meter: UpstreamMeter;
  },
): Promise<IconSearchOutput> {
  const { provider, ctx } = deps;
  const answer = await provider.search(
    { query: request.query, limit: candidateCount(request.limit), prefixes: request.collections },
    ctx,
  );
  const excluded = new Set(request.exclude_collections ?? []);
  const included = request.collections ? new Set(request.collections) : undefined;
  const seen = new Set<string>();
  const inCollections = answer.icons.filter((ref) => {
    const id = `${ref.prefix}:${ref.name}`;
    if (seen.has(id) || excluded.has(ref.prefix) || (included && !included.has(ref.prefix))) return false;
    seen.add(id);
    return true;
  });
  const allowed = inCollections.filter((ref) =>
    licenseAllowed(answer.collections[ref.prefix]?.license?.spdx, request.license_policy),
  );
  const ranked = await deps.rank(request.relevance_criteria, allowed, answer.collections, {
    signal: ctx.signal,
    meter: deps.meter,
  });
  const chosen = ranked.ordered.slice(0, request.limit);
  const byPrefix = new Map<string, string[]>();
  for (const ref of chosen) byPrefix.set(ref.prefix, [...(byPrefix.get(ref.prefix) ?? []), ref.name]);
  const sizes = new Map<string, { width: number; height: number }>();
  for (const [prefix, names] of byPrefix) {
    for (const [name, size] of await provider.sizes(prefix, names, ctx)) sizes.set(`${prefix}:${name}`, size);
  }
  const results = chosen.flatMap((ref) => {
    const size = sizes.get(`${ref.prefix}:${ref.name}`);
    return size
      ? [
          toResult(
            ref,
            answer.collections[ref.prefix],
            size,
            deps.publicBase,
            iconVersion(deps.provider, ref.prefix),
          ),
        ]
      : [];
  });
  return {
    icons: results.map((r) => r.id),
    results,
    result_count: results.length,
    license_policy: request.license_policy,
    hidden_by_license: inCollections.length - allowed.length,
    relevance_applied: ranked.applied,
  };
}
