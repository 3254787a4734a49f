/**
 * A bounded in-memory cache with a time to live: at most `maxEntries` entries, the least
 * recently used evicted first, each expiring `ttlMs` after it was stored. Never persisted.
 */

export interface TtlCacheOptions {
  maxEntries: number;
  ttlMs: number;
  /** Clock in milliseconds; `Date.now` unless a test injects one. */
  now?: () => number;
}

export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  private readonly now: () => number;

  constructor(private readonly options: TtlCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The live value of `key` (refreshing its recency), or undefined. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value`; evicts the least recently used entries past the bound. */
  set(key: string, value: V): void {
    if (this.options.maxEntries <= 0 || this.options.ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + this.options.ttlMs });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  /** How many entries are held (expired ones included until touched or evicted). */
  get size(): number {
    return this.entries.size;
  }
}
