/**
 * The encyclopedia routes' service: per-key and per-IP limits, the
 * language allow-list, the shared lookup service (cache, outbound budget, concurrency,
 * Retry-After), and one usage record per request: one credit when an API key's request asked
 * the upstream, none when the cache answered or the request came over a first-party workspace
 * session (`credits: 0`). Runs in the API process; no Temporal round trip.
 */
import { randomUUID } from 'node:crypto';
import { requireLanguage } from '../../../lib/encyclopedia/languages.js';
import type { Principal } from '../../../lib/keys.js';
import type { Limits } from '../../../lib/limits/index.js';
import type { UsageRecords } from '../../../lib/store/owners/usage-records.js';
import type { ArticleSummary, SearchResult } from './upstream/articles.js';
import type { ProxiedImage } from './upstream/image-proxy.js';
import type { EncyclopediaService } from './upstream/service.js';

/** The caller of one route request: its principal and address key (lib/net/client-ip.ts). */
export interface RouteCaller {
  principal: Principal;
  ipKey: string;
}

export class EncyclopediaRoutes {
  /**
   * `lookups`: the app's one service; `limits`: the API's (lib/limits/index.ts), which holds the
   * per-key and per-address limits.
   */
  constructor(
    readonly lookups: EncyclopediaService,
    private readonly limits: Pick<Limits, 'charge'>,
    private readonly usage: UsageRecords,
  ) {}

  /** Counts one request against the caller's key (when authenticated) and address. */
  async limit(ipKey: string, principal?: Principal): Promise<void> {
    if (principal) await this.limits.charge('encyclopedia_owner', principal.ownerId);
    await this.limits.charge('encyclopedia_ip', ipKey);
  }

  async search(
    caller: RouteCaller,
    q: { query: string; language: string; limit: number },
    signal: AbortSignal,
  ): Promise<SearchResult & { cached: boolean }> {
    const language = requireLanguage(q.language);
    await this.limit(caller.ipKey, caller.principal);
    const { value, cached } = await this.lookups.search(
      { query: q.query, language, limit: q.limit },
      { signal },
    );
    await this.record(caller.principal, 'encyclopedia.search_articles', cached);
    return { ...value, cached };
  }

  async summary(
    caller: RouteCaller,
    q: { title: string; language: string },
    signal: AbortSignal,
  ): Promise<ArticleSummary & { cached: boolean }> {
    const language = requireLanguage(q.language);
    await this.limit(caller.ipKey, caller.principal);
    const { value, cached } = await this.lookups.summary({ title: q.title, language }, { signal });
    await this.record(caller.principal, 'encyclopedia.get_summary', cached);
    return { ...value, cached };
  }

  /** Thumbnail bytes through the image proxy; limited per address, free of credits. */
  async thumbnail(ipKey: string, src: string, signal: AbortSignal): Promise<ProxiedImage> {
    await this.limit(ipKey);
    return this.lookups.image(src, signal);
  }

  private async record(principal: Principal, skill: string, cached: boolean): Promise<void> {
    await this.usage.record({
      taskId: `enc_${randomUUID()}`,
      ownerId: principal.ownerId,
      keyId: principal.keyId,
      payer: { type: 'owner', id: principal.ownerId },
      skill,
      requestItems: 1,
      // First-party workspace sessions are free; an API key pays one credit per cache miss.
      credits: cached || principal.sessionId !== undefined ? 0 : 1,
      queued: false,
    });
  }
}
