import { describe, expect, it } from 'vitest';
import { DefinitionCache } from './definition-cache.js';
import type { StoredDefinition } from './store/owners/definitions.js';

const def = (id: string, ownerId: string, version = 1): StoredDefinition =>
  ({
    id,
    ownerId,
    version,
    source: `title: ${id}`,
    plan: { title: id, steps: [{ id: 'a' }] },
    triggerType: 'manual',
    createdAt: new Date(0),
    updatedAt: new Date(0),
  }) as unknown as StoredDefinition;

/** A loader that counts its reads. */
function loader(value: StoredDefinition | undefined) {
  const l = { reads: 0, load: () => (l.reads++, Promise.resolve(value && structuredClone(value))) };
  return l;
}

describe('the definition cache', () => {
  it('reads a definition once and answers later gets from memory, deep-frozen', async () => {
    const cache = new DefinitionCache();
    const l = loader(def('wf_1', 'owner_a'));
    const first = await cache.get('owner_a', 'wf_1', l.load);
    const second = await cache.get('owner_a', 'wf_1', l.load);
    expect(l.reads).toBe(1);
    expect(second).toBe(first);
    expect(second?.version).toBe(1);
    expect(() => {
      (second!.plan.steps as unknown as { id: string }[])[0]!.id = 'changed';
    }).toThrow(TypeError);
    expect(cache.size).toBe(1);
  });

  it("never answers another owner's definition from memory", async () => {
    const cache = new DefinitionCache();
    await cache.get('owner_a', 'wf_1', loader(def('wf_1', 'owner_a')).load);
    const other = loader(undefined);
    expect(await cache.get('owner_b', 'wf_1', other.load)).toBeUndefined();
    expect(other.reads).toBe(1);
  });

  it('does not cache a missing definition', async () => {
    const cache = new DefinitionCache();
    const l = loader(undefined);
    await cache.get('owner_a', 'wf_x', l.load);
    await cache.get('owner_a', 'wf_x', l.load);
    expect(l.reads).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('reads again after forget, after the entry expires, and while suspended', async () => {
    let now = 1_000;
    const cache = new DefinitionCache({ ttlMs: 60_000, now: () => now });
    const l = loader(def('wf_1', 'owner_a'));
    await cache.get('owner_a', 'wf_1', l.load);
    cache.forget('wf_1');
    await cache.get('owner_a', 'wf_1', l.load);
    expect(l.reads).toBe(2);
    now += 59_999;
    await cache.get('owner_a', 'wf_1', l.load);
    expect(l.reads).toBe(2);
    now += 1;
    await cache.get('owner_a', 'wf_1', l.load);
    expect(l.reads).toBe(3);
    cache.suspend();
    expect([cache.caching, cache.size]).toEqual([false, 0]);
    await cache.get('owner_a', 'wf_1', l.load);
    await cache.get('owner_a', 'wf_1', l.load);
    expect([l.reads, cache.size]).toEqual([5, 0]);
    cache.resume();
    await cache.get('owner_a', 'wf_1', l.load);
    await cache.get('owner_a', 'wf_1', l.load);
    expect([l.reads, cache.size]).toEqual([6, 1]);
  });

  it('does not keep a read that a save raced (it may hold the version before)', async () => {
    const cache = new DefinitionCache();
    let release!: () => void;
    const slow = async () => {
      await new Promise<void>((r) => (release = r));
      return def('wf_1', 'owner_a', 1);
    };
    const pending = cache.get('owner_a', 'wf_1', slow);
    cache.forget('wf_1');
    release();
    expect((await pending)?.version).toBe(1);
    expect(cache.size).toBe(0);
  });

  it('holds at most maxEntries, dropping the least recently used', async () => {
    const cache = new DefinitionCache({ maxEntries: 2 });
    await cache.get('o', 'wf_1', loader(def('wf_1', 'o')).load);
    await cache.get('o', 'wf_2', loader(def('wf_2', 'o')).load);
    await cache.get('o', 'wf_1', loader(undefined).load); // wf_1 is now the most recent
    await cache.get('o', 'wf_3', loader(def('wf_3', 'o')).load);
    expect(cache.size).toBe(2);
    const again = loader(def('wf_2', 'o'));
    await cache.get('o', 'wf_2', again.load);
    expect(again.reads).toBe(1);
    const kept = loader(undefined);
    expect((await cache.get('o', 'wf_3', kept.load))?.id).toBe('wf_3');
    expect(kept.reads).toBe(0);
  });
});
