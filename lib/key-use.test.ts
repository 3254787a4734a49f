/**
 * A key's last use on a real (PGlite) store: written at its first use, not again within the
 * minute (neither by this process nor, through the store's own check, by another), then again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_USE_PRECISION_MS, KeyUseRecorder } from './key-use.js';
import { createKey } from './keys.js';
import { openStore, type Store } from './store/db.js';
import { apiKeyById } from './store/owners/api-keys.js';

describe('KeyUseRecorder', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ pgliteDir: 'memory://' });
  });
  afterAll(async () => {
    await store.close();
  });

  /** The stored last use (ms) once the background write has landed, or after a second. */
  const lastUsed = async (id: string, expected?: number): Promise<number | undefined> => {
    let at: number | undefined;
    for (let i = 0; i < 20; i++) {
      at = (await apiKeyById(store, id))?.lastUsedAt?.getTime();
      if (at === expected) return at;
      await new Promise((r) => setTimeout(r, 50));
    }
    return at;
  };

  it('records the first use, skips uses within the minute, and records the next one after it', async () => {
    const { id } = await createKey(store, { name: 'u', scopes: ['*'], ownerId: 'owner_u', tier: 'free' });
    expect(await lastUsed(id)).toBeUndefined();
    let clock = Date.UTC(2026, 10, 27, 3, 0, 0);
    const recorder = new KeyUseRecorder(store, () => clock);
    const first = clock;
    recorder.touch(id);
    expect(await lastUsed(id, first)).toBe(first);

    clock += KEY_USE_PRECISION_MS - 1;
    recorder.touch(id);
    // Another process's recorder (its own memory) is held back by the store's check.
    new KeyUseRecorder(store, () => clock).touch(id);
    await new Promise((r) => setTimeout(r, 300));
    expect((await apiKeyById(store, id))?.lastUsedAt?.getTime()).toBe(first);

    clock = first + KEY_USE_PRECISION_MS + 1;
    recorder.touch(id);
    expect(await lastUsed(id, clock)).toBe(clock);
  });
});
