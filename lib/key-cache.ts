/**
 * The API process's cache of verified API keys, so an authenticated request does not look its
 * key up in the store every time. Entries are keyed by the token's SHA-256 (never the token),
 * hold only the principal (key id, owner, scopes, tier) and live `ttlMs` (API_KEY_CACHE_TTL_MS,
 * default 10 s; 0 turns the cache off). At most {@link KEY_CACHE_MAX_ENTRIES} entries, least
 * recently used evicted first. Unknown and revoked tokens are never cached.
 *
 * A key revoked through this process is forgotten at once ({@link PrincipalCache.forgetKey}), so
 * its next request is 401. On PostgreSQL every API process also hears revocations made elsewhere
 * (lib/key-revocations.ts) and forgets those keys as they arrive; while it cannot hear them it
 * holds nothing and caches nothing ({@link PrincipalCache.suspend}), so every request reads the
 * store.
 */
import { hashToken, verifyToken, type Principal } from './keys.js';
import type { Store } from './store/db.js';

/** Bound on cached keys (LRU eviction past it). */
export const KEY_CACHE_MAX_ENTRIES = 10_000;

interface Entry {
  principal: Principal;
  expiresAt: number;
}

export interface PrincipalCacheOptions {
  ttlMs: number;
  maxEntries?: number;
  /** The clock, in ms (tests inject one). */
  now?: () => number;
  /** Told the key id of every token verified, from the cache or the store (lib/key-use.ts). */
  onUse?: (keyId: string) => void;
}

export class PrincipalCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly onUse: ((keyId: string) => void) | undefined;
  /** Bumped by every forgetKey and suspend: a lookup that raced either is not cached. */
  private forgets = 0;
  private suspended = false;

  constructor(
    private readonly store: Store,
    opts: PrincipalCacheOptions,
  ) {
    this.ttlMs = opts.ttlMs;
    this.maxEntries = opts.maxEntries ?? KEY_CACHE_MAX_ENTRIES;
    this.now = opts.now ?? Date.now;
    this.onUse = opts.onUse;
  }

  /** The principal behind a token (from the cache while fresh), or undefined as {@link verifyToken}. */
  async verify(token: string): Promise<Principal | undefined> {
    const principal = await this.lookup(token);
    if (principal) this.onUse?.(principal.keyId);
    return principal;
  }

  private async lookup(token: string): Promise<Principal | undefined> {
    if (this.ttlMs === 0 || this.suspended) return verifyToken(this.store, token);
    const hash = hashToken(token);
    const hit = this.entries.get(hash);
    if (hit) {
      this.entries.delete(hash);
      if (hit.expiresAt > this.now()) {
        this.entries.set(hash, hit); // most recently used last
        return hit.principal;
      }
    }
    const forgets = this.forgets;
    const principal = await verifyToken(this.store, token);
    if (!principal || forgets !== this.forgets || this.suspended) return principal;
    this.entries.set(hash, { principal, expiresAt: this.now() + this.ttlMs });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    return principal;
  }

  /** Drops every entry of this key (revoked, or its scopes or tier changed). */
  forgetKey(keyId: string): void {
    this.forgets++;
    for (const [hash, entry] of this.entries) {
      if (entry.principal.keyId === keyId) this.entries.delete(hash);
    }
  }

  /** Drops every entry and caches nothing until {@link resume}: revocations may go unheard. */
  suspend(): void {
    this.forgets++;
    this.suspended = true;
    this.entries.clear();
  }

  /** Caches again (revocations are heard again). */
  resume(): void {
    this.suspended = false;
  }

  /** False while suspended (or with a TTL of 0): every verification reads the store. */
  get caching(): boolean {
    return this.ttlMs > 0 && !this.suspended;
  }

  /** Entries held now (expired ones included until touched). */
  get size(): number {
    return this.entries.size;
  }
}
