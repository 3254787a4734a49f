/**
 * The key cache on a real (PGlite) store: a fresh entry answers without the store, so a key
 * revoked behind its back (no forgetKey: nothing announced it) is honoured until the TTL ends and
 * refused right after; forgetKey drops it at once; suspend empties it and caches nothing until
 * resume; the LRU bound evicts the oldest entry; the
 * cache never holds a token in clear.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrincipalCache } from './key-cache.js';
import { createKey } from './keys.js';
import { openStore, type Store } from './store/db.js';
import { revokeApiKey } from './store/owners/api-keys.js';

describe('PrincipalCache', () => {
  let store: Store;
  let clock = 1_000_000;
  const now = () => clock;
  beforeAll(async () => {
    store = await openStore({ pgliteDir: 'memory://' });
  });
  afterAll(async () => {
    await store.close();
  });

  const key = () => createKey(store, { name: 'c', scopes: ['*'], ownerId: 'owner_c', tier: 'free' });

  it('honours a key revoked elsewhere until the TTL ends, then refuses it', async () => {
    const cache = new PrincipalCache(store, { ttlMs: 10_000, now });
    const k = await key();
    const principal = { keyId: k.id, ownerId: 'owner_c', scopes: ['*'], tier: 'free' };
    expect(await cache.verify(k.token)).toEqual(principal);
    expect(await revokeApiKey(store, 'owner_c', k.id)).toBe(true);
    clock += 9_999;
    expect(await cache.verify(k.token)).toEqual(principal);
    clock += 1;
    expect(await cache.verify(k.token)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('forgets a key at once, and never caches an unknown token', async () => {
    const cache = new PrincipalCache(store, { ttlMs: 10_000, now });
    const k = await key();
    expect((await cache.verify(k.token))?.keyId).toBe(k.id);
    await revokeApiKey(store, 'owner_c', k.id);
    cache.forgetKey(k.id);
    expect(cache.size).toBe(0);
    expect(await cache.verify(k.token)).toBeUndefined();
    expect(await cache.verify(`${k.token.slice(0, -1)}A`)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('evicts the least recently used entry past its bound and keys entries by hash only', async () => {
    const cache = new PrincipalCache(store, { ttlMs: 10_000, now, maxEntries: 2 });
    const [a, b, c] = [await key(), await key(), await key()];
    await cache.verify(a.token);
    await cache.verify(b.token);
    await cache.verify(a.token); // a is now the most recent
    await cache.verify(c.token); // evicts b
    expect(cache.size).toBe(2);
    await revokeApiKey(store, 'owner_c', a.id);
    await revokeApiKey(store, 'owner_c', b.id);
    expect((await cache.verify(a.token))?.keyId).toBe(a.id); // still cached
    expect(await cache.verify(b.token)).toBeUndefined(); // evicted, so read again: revoked
    const held = JSON.stringify([...(cache as unknown as { entries: Map<string, unknown> }).entries]);
    expect(held).not.toContain(a.token);
    expect(held).not.toContain(c.token);
  });

  it('while suspended holds nothing and caches nothing, then caches again after resume', async () => {
    const cache = new PrincipalCache(store, { ttlMs: 10_000, now });
    const k = await key();
    await cache.verify(k.token);
    expect([cache.size, cache.caching]).toEqual([1, true]);
    cache.suspend();
    expect([cache.size, cache.caching]).toEqual([0, false]);
    expect((await cache.verify(k.token))?.keyId).toBe(k.id);
    expect(cache.size).toBe(0);
    await revokeApiKey(store, 'owner_c', k.id);
    expect(await cache.verify(k.token)).toBeUndefined(); // read from the store, not remembered
    cache.resume();
    const other = await key();
    await cache.verify(other.token);
    expect([cache.size, cache.caching]).toEqual([1, true]);
  });

  it('a lookup that a suspend overtook is not cached', async () => {
    const cache = new PrincipalCache(store, { ttlMs: 10_000, now });
    const k = await key();
    const pending = cache.verify(k.token);
    cache.suspend();
    cache.resume();
    expect((await pending)?.keyId).toBe(k.id);
    expect(cache.size).toBe(0);
  });

  it('with a TTL of 0 reads the store every time', async () => {
    const cache = new PrincipalCache(store, { ttlMs: 0, now });
    const k = await key();
    expect((await cache.verify(k.token))?.keyId).toBe(k.id);
    await revokeApiKey(store, 'owner_c', k.id);
    expect(await cache.verify(k.token)).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
