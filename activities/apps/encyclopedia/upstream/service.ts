/**
 * Encyclopedia lookups with the spec's protections: the language
 * allow-list, the outbound guard (lib/limits/outbound-guard.ts), and a bounded TTL cache of public results keyed by
 * language and the normalised title or query. The cache is in memory only; its keys and the
 * query text are never logged or stored. Each lookup says whether it was served from the cache
 * (a cache hit costs no credit).
 *
 * One service per registry: the app builds it from its slice when the registry opens it
 * (`defineApp({ services })`), and its routes, both skills and the platform's reference
 * resolution (chat delivery, the decide step) receive that one service, so they share its
 * cache, outbound budget and concurrency bound. The budget, the bound and the upstream's 429
 * cool-down are also shared with every other process on the platform store (the cache is not).
 */
import type { EncyclopediaAppConfig } from '../config.js';
import { TtlCache } from '../../../../lib/cache/ttl-cache.js';
import { recordCacheLookup } from '../../../../lib/metrics/upstream.js';
import type { EncyclopediaLanguage } from '../../../../lib/encyclopedia/languages.js';
import { errors } from '../../../../lib/errors/errors.js';
import { SkillflowError } from '../../../../lib/errors/skillflow-error.js';
import type { ResolveHost } from '../../../../lib/net/webhook.js';
import type { Store } from '../../../../lib/store/db.js';
import type { AppServiceParts } from '../../../registry/define.js';
import { toSafePlainText } from '../../../../lib/text/safe-plain-text.js';
import { referenceOf, type ArticleMatch, type ArticleSummary, type SearchResult } from './articles.js';
import { createEncyclopediaClient, titlePath, type EncyclopediaClient } from './client.js';
import { OutboundGuard } from '../../../../lib/limits/outbound-guard.js';
import { fetchImage, isAllowedImageUrl, type ProxiedImage } from './image-proxy.js';
import type { PagePropsWire, SummaryWire } from './wire.js';

export const MAX_EXTRACT_CHARS = 2_000;
export const MAX_DESCRIPTION_CHARS = 300;
export const THUMBNAIL_ROUTE = '/v1/encyclopedia/thumbnail';

/** A lookup's value and whether the cache served it. */
export interface Lookup<T> {
  value: T;
  cached: boolean;
}

export interface SearchQuery {
  query: string;
  language: EncyclopediaLanguage;
  limit: number;
}

/** Per-call context: the abort signal, and the platform meter charged before each upstream request. */
export interface LookupContext {
  signal: AbortSignal;
  charge?: (() => Promise<void>) | undefined;
}

export interface SummaryQuery {
  title: string;
  language: EncyclopediaLanguage;
}

/** NFC, whitespace collapsed: the form a query is sent and cached in. */
export function normaliseQuery(query: string): string {
  return query.normalize('NFC').replace(/\s+/g, ' ').trim();
}

/** MediaWiki's title normalisation: underscores as spaces, first letter upper case. */
export function normaliseTitle(title: string): string {
  const t = normaliseQuery(title.replaceAll('_', ' '));
  return t.charAt(0).toLocaleUpperCase() + t.slice(1);
}

/** Letters and digits only, lower case: how a run-together name is compared. */
function compact(text: string): string {
  return text.toLocaleLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** Exact (run-together) match first, then prefix matches, then the upstream's order. */
export function rankMatches<T extends { title: string }>(query: string, items: readonly T[]): T[] {
  const q = compact(query);
  const score = (t: string) => (compact(t) === q ? 0 : compact(t).startsWith(q) ? 1 : 2);
  return items
    .map((item, i) => ({ item, i, s: score(item.title) }))
    .sort((a, b) => a.s - b.s || a.i - b.i)
    .map((x) => x.item);
}

/** Titles the batched page-props answer marks as disambiguation pages, after normalisation and redirects. */
function disambiguationTitles(wire: PagePropsWire): (title: string) => boolean {
  const q = wire.query;
  const marked = new Set(
    (q?.pages ?? []).filter((p) => p.pageprops?.disambiguation !== undefined).map((p) => p.title),
  );
  const step = new Map<string, string>(
    [...(q?.normalized ?? []), ...(q?.redirects ?? [])].map((e) => [e.from, e.to]),
  );
  return (title) => {
    let t = title;
    for (let i = 0; i < 3 && step.has(t); i++) t = step.get(t)!;
    return marked.has(t);
  };
}

export class EncyclopediaService {
  readonly guard: OutboundGuard;
  private readonly cache: TtlCache<SearchResult | ArticleSummary>;

  constructor(
    private readonly config: EncyclopediaAppConfig,
    private readonly client: EncyclopediaClient | undefined,
    private readonly resolve?: ResolveHost,
    store?: Store,
  ) {
    this.guard = new OutboundGuard({
      upstream: 'The encyclopedia',
      provider: 'encyclopedia',
      outboundPerMinute: config.ENCYCLOPEDIA_OUTBOUND_PER_MINUTE,
      maxConcurrency: config.ENCYCLOPEDIA_MAX_CONCURRENCY,
      store,
    });
    this.cache = new TtlCache({
      maxEntries: config.ENCYCLOPEDIA_CACHE_ENTRIES,
      ttlMs: config.ENCYCLOPEDIA_CACHE_TTL_SECONDS * 1000,
    });
  }

  private upstream(): EncyclopediaClient {
    if (this.client) return this.client;
    throw errors.serviceUnavailable('The encyclopedia is not configured (ENCYCLOPEDIA_URL).', {
      provider: 'encyclopedia',
    });
  }

  /** Ordered title metadata, best match first, disambiguation pages marked. */
  async search(q: SearchQuery, ctx: LookupContext): Promise<Lookup<SearchResult>> {
    const query = normaliseQuery(q.query);
    const key = `search\u0000${q.language}\u0000${q.limit}\u0000${query.toLocaleLowerCase()}`;
    const hit = this.cache.get(key) as SearchResult | undefined;
    recordCacheLookup('encyclopedia', hit !== undefined);
    if (hit) return { value: hit, cached: true };
    const client = this.upstream();
    const wire = await this.guard.run(() => client.searchTitles(q.language, query, q.limit, ctx.signal), ctx);
    const pages = wire.pages.slice(0, q.limit);
    const isDisambiguation =
      pages.length === 0
        ? () => false
        : disambiguationTitles(
            await this.guard.run(
              () =>
                client.pageProps(
                  q.language,
                  pages.map((p) => p.title),
                  ctx.signal,
                ),
              ctx,
            ),
          );
    const items = pages.flatMap((p): ArticleMatch[] => {
      const title = toSafePlainText(p.title, 255);
      if (!title.ok || title.text === '') return [];
      const description = toSafePlainText(p.description ?? '', MAX_DESCRIPTION_CHARS);
      return [
        {
          title: title.text,
          description: description.ok && description.text !== '' ? description.text : null,
          url: `${client.base(q.language)}/wiki/${titlePath(title.text)}`,
          thumbnail: this.thumbnail(q.language, p.thumbnail?.url, p.thumbnail?.width, p.thumbnail?.height),
          disambiguation: isDisambiguation(p.title),
          reference: referenceOf(q.language, title.text),
        },
      ];
    });
    const value: SearchResult = { language: q.language, results: rankMatches(query, items) };
    this.cache.set(key, value);
    return { value, cached: false };
  }

  /** Selected public metadata of one article; redirects and normalisation followed. */
  async summary(q: SummaryQuery, ctx: LookupContext): Promise<Lookup<ArticleSummary>> {
    const title = normaliseTitle(q.title);
    const key = `summary\u0000${q.language}\u0000${title}`;
    const hit = this.cache.get(key) as ArticleSummary | undefined;
    recordCacheLookup('encyclopedia', hit !== undefined);
    if (hit) return { value: hit, cached: true };
    const client = this.upstream();
    const wire = await this.guard.run(() => client.summary(q.language, title, ctx.signal), ctx);
    const value = this.toSummary(q.language, wire, client);
    this.cache.set(key, value);
    return { value, cached: false };
  }

  private toSummary(
    language: EncyclopediaLanguage,
    wire: SummaryWire,
    client: EncyclopediaClient,
  ): ArticleSummary {
    const extract = toSafePlainText(wire.extract ?? '', MAX_EXTRACT_CHARS);
    const description = toSafePlainText(wire.description ?? '', MAX_DESCRIPTION_CHARS);
    const title = toSafePlainText((wire.titles?.normalized ?? wire.title).replaceAll('_', ' '), 255);
    if (!extract.ok || !description.ok || !title.ok || title.text === '') {
      throw new SkillflowError('CONTENT_BLOCKED', undefined, { provider: 'encyclopedia' });
    }
    const known = ['standard', 'disambiguation', 'no-extract', 'mainpage'] as const;
    const type = (known as readonly string[]).includes(wire.type)
      ? (wire.type as (typeof known)[number])
      : 'other';
    return {
      title: title.text,
      description: description.text === '' ? null : description.text,
      url: `${client.base(language)}/wiki/${titlePath(title.text)}`,
      thumbnail: this.thumbnail(
        language,
        wire.thumbnail?.source,
        wire.thumbnail?.width,
        wire.thumbnail?.height,
      ),
      disambiguation: wire.type === 'disambiguation',
      reference: referenceOf(language, title.text),
      language,
      type,
      extract: extract.text,
    };
  }

  /** The proxied thumbnail of an upstream image URL (protocol-relative allowed), or null when not allowed. */
  private thumbnail(
    language: EncyclopediaLanguage,
    src: string | undefined,
    width: number | null | undefined,
    height: number | null | undefined,
  ): ArticleMatch['thumbnail'] {
    if (!src || !this.client) return null;
    let url: URL;
    try {
      url = new URL(src, this.client.base(language));
    } catch {
      return null;
    }
    if (!isAllowedImageUrl(url, this.config.ENCYCLOPEDIA_IMAGE_HOSTS)) return null;
    const proxied = `${this.config.PUBLIC_URL ?? ''}${THUMBNAIL_ROUTE}?src=${encodeURIComponent(url.href)}`;
    const dim = (n: number | null | undefined) => (typeof n === 'number' && Number.isInteger(n) ? n : null);
    return { url: proxied, width: dim(width), height: dim(height) };
  }

  /** Thumbnail bytes through the proxy rules (image-proxy.ts), charged to the outbound guard. */
  image(src: string, signal: AbortSignal): Promise<ProxiedImage> {
    return fetchImage(
      src,
      {
        allowedHosts: this.config.ENCYCLOPEDIA_IMAGE_HOSTS,
        maxBytes: this.config.ENCYCLOPEDIA_IMAGE_MAX_BYTES,
        timeoutMs: this.config.ENCYCLOPEDIA_TIMEOUT_MS,
        userAgent: this.config.ENCYCLOPEDIA_USER_AGENT,
        ...(this.resolve ? { resolve: this.resolve } : {}),
      },
      (fn) => this.guard.run(fn, { signal }),
      signal,
    );
  }
}

/**
 * A service over the configured upstream (none without ENCYCLOPEDIA_URL: every lookup then
 * answers 503). With the platform store its outbound budget, concurrency bound and cool-down are
 * shared by every process on that store; without one they are this process's own.
 */
export function createEncyclopediaService(
  config: EncyclopediaAppConfig,
  parts: AppServiceParts = {},
): EncyclopediaService {
  const client = config.ENCYCLOPEDIA_URL
    ? createEncyclopediaClient({
        urlTemplate: config.ENCYCLOPEDIA_URL,
        userAgent: config.ENCYCLOPEDIA_USER_AGENT,
        timeoutMs: config.ENCYCLOPEDIA_TIMEOUT_MS,
      })
    : undefined;
  return new EncyclopediaService(config, client, undefined, parts.store);
}
