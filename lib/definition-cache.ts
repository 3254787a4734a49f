/**
 * The API process's cache of opened workflow definitions (current version), so starting a run
 * neither reads the store nor decrypts and parses the sealed plan every time. Entries are keyed
 * by owner and definition id, hold the opened definition deep-frozen (nobody can change a shared
 * copy) and live at most {@link DEFINITION_CACHE_TTL_MS}; at most {@link DEFINITION_CACHE_MAX_ENTRIES},
 * least recently used evicted first. A missing definition is never cached.
 *
 * A save or delete through this process forgets the definition at once
 * ({@link DefinitionCache.forget}). On PostgreSQL every API process also hears the saves and
 * deletes of the others (the definitions' change channel, lib/definition-changes.ts) and forgets
 * those definitions as the announcements arrive; while it cannot hear them it holds nothing and
 * caches nothing ({@link DefinitionCache.suspend}), so every read goes to the store. A run
 * started through another process in the moment between a save's commit and its announcement
 * starts the version before (as if the start had arrived a moment earlier).
 */
import type { StoredDefinition } from './store/owners/definitions.js';

export const DEFINITION_CACHE_MAX_ENTRIES = 2_000;
/** The longest an entry is trusted without an announcement. */
export const DEFINITION_CACHE_TTL_MS = 60_000;

interface Entry {
  def: StoredDefinition;
  expiresAt: number;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export interface DefinitionCacheOptions {
  maxEntries?: number;
  ttlMs?: number;
  /** The clock, in ms (tests inject one). */
  now?: () => number;
}

export class DefinitionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;
  /** Bumped by every forget and suspend: a read that raced either is not cached. */
  private forgets = 0;
  private suspended = false;

  constructor(opts: DefinitionCacheOptions = {}) {
    this.maxEntries = opts.maxEntries ?? DEFINITION_CACHE_MAX_ENTRIES;
    this.ttlMs = opts.ttlMs ?? DEFINITION_CACHE_TTL_MS;
    this.now = opts.now ?? Date.now;
  }

  /** The cached definition, else `load`'s answer (cached when it exists and nothing raced it). */
  async get(
    ownerId: string,
    id: string,
    load: () => Promise<StoredDefinition | undefined>,
  ): Promise<StoredDefinition | undefined> {
    const hit = this.entries.get(id);
    // Another owner's definition is theirs: read as if nothing were cached.
    if (hit && hit.def.ownerId !== ownerId) return load();
    if (hit && hit.expiresAt > this.now()) {
      // Most recently used last.
      this.entries.delete(id);
      this.entries.set(id, hit);
      return hit.def;
    }
    if (hit) this.entries.delete(id);
    const before = this.forgets;
    const def = await load();
    if (!def || this.suspended || this.forgets !== before) return def;
    this.entries.set(id, { def: deepFreeze(def), expiresAt: this.now() + this.ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return def;
  }

  /** Forgets a definition (saved or deleted). */
  forget(id: string): void {
    this.forgets++;
    this.entries.delete(id);
  }

  /** Drops everything and caches nothing until {@link resume}. */
  suspend(): void {
    this.forgets++;
    this.suspended = true;
    this.entries.clear();
  }

  resume(): void {
    this.suspended = false;
  }

  /** False while suspended. */
  get caching(): boolean {
    return !this.suspended;
  }

  get size(): number {
    return this.entries.size;
  }
}

const perStore = new WeakMap<object, DefinitionCache>();

/**
 * The one cache of a store in this process: every service over the same store shares it, so a
 * save through any of them is seen by all.
 */
export function definitionCacheOf(store: object): DefinitionCache {
  let cache = perStore.get(store);
  if (!cache) perStore.set(store, (cache = new DefinitionCache()));
  return cache;
}
