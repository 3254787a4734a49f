/**
 * The offline icon provider: real icon sets shipped as `@iconify-json/*` packages, rendered with
 * `@iconify/utils`. The sets cover every license class, so the permissive filter visibly hides
 * some (see OFFLINE_SETS). The search index is built once per process and its build time kept.
 *
 * Ranking: exact name (or alias) first, then a name starting with the query, then a name
 * containing it, then every query word found in the name's words or the set's categories. Ties:
 * shorter name, set order, name.
 */
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { getIconData, iconToHTML, iconToSVG, replaceIDs } from '@iconify/utils';
import type { IconifyJSON } from '@iconify/types';
import type { IconCollection, IconProvider, IconRef, IconSize } from './provider.js';

/** The shipped sets, in tie-break order, with the license each declares in its info.json. */
export const OFFLINE_SETS = [
  'lucide', // ISC
  'tabler', // MIT
  'mdi', // Apache-2.0
  'system-uicons', // Unlicense
  'simple-icons', // CC0-1.0
  'rivet-icons', // BSD-3-Clause
  'mdi-light', // OFL-1.1
  'typcn', // CC-BY-SA-4.0
  'gridicons', // GPL-2.0-only
] as const;

interface InfoFile {
  name: string;
  author?: { name: string; url?: string };
  license?: { title?: string; spdx?: string; url?: string };
}

interface Entry {
  prefix: string;
  name: string;
  /** The name plus its aliases. */
  names: string[];
  /** Words of the names and the set's categories, lower-case. */
  words: Set<string>;
}

export interface OfflineIndex {
  sets: Map<string, IconifyJSON>;
  collections: Record<string, IconCollection>;
  entries: Entry[];
  order: Map<string, number>;
  /** Milliseconds the index took to build. */
  buildMs: number;
}

const require = createRequire(import.meta.url);

function categoryWords(prefix: string): Map<string, string[]> {
  const words = new Map<string, string[]>();
  const metadata = require(`@iconify-json/${prefix}/metadata.json`) as {
    categories?: Record<string, string[]>;
  };
  for (const [category, names] of Object.entries(metadata.categories ?? {})) {
    const split = category
      .toLowerCase()
      .split(/[^a-z0-9]+/u)
      .filter(Boolean);
    for (const n of names) words.set(n, [...(words.get(n) ?? []), ...split]);
  }
  return words;
}

function buildIndex(): OfflineIndex {
  const started = performance.now();
  const sets = new Map<string, IconifyJSON>();
  const collections: Record<string, IconCollection> = {};
  const entries: Entry[] = [];
  for (const prefix of OFFLINE_SETS) {
    const set = require(`@iconify-json/${prefix}/icons.json`) as IconifyJSON;
    const info = require(`@iconify-json/${prefix}/info.json`) as InfoFile;
    sets.set(prefix, set);
    collections[prefix] = { prefix, name: info.name, license: info.license, author: info.author };
    const aliasesOf = new Map<string, string[]>();
    for (const [alias, { parent }] of Object.entries(set.aliases ?? {}))
      aliasesOf.set(parent, [...(aliasesOf.get(parent) ?? []), alias]);
    const categories = categoryWords(prefix);
    for (const [name, icon] of Object.entries(set.icons)) {
      if (icon.hidden) continue;
      const names = [name, ...(aliasesOf.get(name) ?? [])];
      const words = new Set([...names.flatMap((n) => n.split('-')), ...(categories.get(name) ?? [])]);
      entries.push({ prefix, name, names, words });
    }
  }
  const order = new Map<string, number>(OFFLINE_SETS.map((p, i) => [p, i]));
  return { sets, collections, entries, order, buildMs: performance.now() - started };
}

let index: OfflineIndex | undefined;

/** The process-wide index, built on first use (at startup, by the skill and the SVG route). */
export function offlineIndex(): OfflineIndex {
  index ??= buildIndex();
  return index;
}

function score(entry: Entry, slug: string, words: string[]): number | undefined {
  let best: number | undefined;
  for (const n of entry.names) {
    const s = n === slug ? 0 : n.startsWith(slug) ? 1 : n.includes(slug) ? 2 : undefined;
    if (s !== undefined && (best === undefined || s < best)) best = s;
  }
  if (best !== undefined) return best;
  return words.length > 0 && words.every((w) => entry.words.has(w)) ? 3 : undefined;
}

/** Ranked offline search (no license filter: the skill applies it). */
export function searchOffline(idx: OfflineIndex, query: string, prefixes?: string[]): IconRef[] {
  const words = query
    .toLowerCase()
    .split(/[^a-z0-9]+/u)
    .filter(Boolean);
  const slug = words.join('-');
  if (!slug) return [];
  const allowed = prefixes ? new Set(prefixes) : undefined;
  const hits: { entry: Entry; score: number }[] = [];
  for (const entry of idx.entries) {
    if (allowed && !allowed.has(entry.prefix)) continue;
    const s = score(entry, slug, words);
    if (s !== undefined) hits.push({ entry, score: s });
  }
  hits.sort(
    (a, b) =>
      a.score - b.score ||
      a.entry.name.length - b.entry.name.length ||
      (idx.order.get(a.entry.prefix) ?? 0) - (idx.order.get(b.entry.prefix) ?? 0) ||
      a.entry.name.localeCompare(b.entry.name),
  );
  return hits.map(({ entry }) => ({ prefix: entry.prefix, name: entry.name }));
}

/** Width and height of one offline icon (aliases resolve to their parent), or undefined. */
export function offlineSize(idx: OfflineIndex, prefix: string, name: string): IconSize | undefined {
  const set = idx.sets.get(prefix);
  const data = set ? getIconData(set, name) : null;
  if (!set || !data) return undefined;
  return { width: data.width ?? set.width ?? 16, height: data.height ?? set.height ?? 16 };
}

/** Creates the offline provider over the process-wide index. */
export function createOfflineProvider(idx: OfflineIndex = offlineIndex()): IconProvider {
  return {
    kind: 'offline',
    search: ({ query, limit, prefixes }) => {
      const icons = searchOffline(idx, query, prefixes).slice(0, limit);
      const collections: Record<string, IconCollection> = {};
      for (const { prefix } of icons) collections[prefix] = idx.collections[prefix]!;
      return Promise.resolve({ icons, collections });
    },
    version: (prefix) =>
      idx.sets.has(prefix)
        ? (require(`@iconify-json/${prefix}/package.json`) as { version: string }).version
        : undefined,
    sizes: (prefix, names) => {
      const out = new Map<string, IconSize>();
      for (const name of names) {
        const size = offlineSize(idx, prefix, name);
        if (size) out.set(name, size);
      }
      return Promise.resolve(out);
    },
    svg: (prefix, name, { height, color }) => {
      const set = idx.sets.get(prefix);
      const data = set ? getIconData(set, name) : null;
      if (!data) return Promise.resolve(undefined);
      const rendered = iconToSVG(data, { height: String(height) });
      const body = replaceIDs(rendered.body);
      return Promise.resolve(
        iconToHTML(color ? body.replaceAll('currentColor', color) : body, rendered.attributes),
      );
    },
  };
}
