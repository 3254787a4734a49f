import { describe, expect, it } from 'vitest';
import { emptyGate, enqueue, grant, idle, placeOf, release, untold, type SlotRequest } from './flow-queue.js';

const keyed = (run: string, key: string, limit = 2): SlotRequest => ({ run, group: `wf_a/${key}`, limit });
const capped = (run: string, ownerCap: number, extra: Partial<SlotRequest> = {}): SlotRequest => ({
  run,
  ownerCap,
  ...extra,
});

describe('the run gate rules', () => {
  it('grants up to the limit per key, in arrival order, and a full key never holds up another', () => {
    const s = emptyGate();
    for (const run of ['a1', 'a2', 'a3', 'a4']) enqueue(s, keyed(run, 'acme'));
    enqueue(s, keyed('g1', 'globex'));
    expect(grant(s)).toEqual(['a1', 'a2', 'g1']);
    expect(s.queue.map((q) => q.run)).toEqual(['a3', 'a4']);
    expect(placeOf(s, 'a3')).toEqual({ position: 1, reason: 'concurrency' });
    expect(placeOf(s, 'a4')).toEqual({ position: 2, reason: 'concurrency' });
    expect(placeOf(s, 'a1')).toBeUndefined();
    expect(placeOf(s, 'nobody')).toBeUndefined();
    release(s, 'a2');
    expect(grant(s)).toEqual(['a3']);
    expect(placeOf(s, 'a4')).toEqual({ position: 1, reason: 'concurrency' });
  });

  it('ignores a second request of a run that holds or waits, and a release of an unknown run', () => {
    const s = emptyGate();
    enqueue(s, keyed('a1', 'k', 1));
    enqueue(s, keyed('a2', 'k', 1));
    grant(s);
    enqueue(s, keyed('a1', 'k', 1));
    enqueue(s, keyed('a2', 'k', 1));
    expect(s.holders.map((h) => h.run)).toEqual(['a1']);
    expect(s.queue.map((q) => q.run)).toEqual(['a2']);
    release(s, 'zz');
    expect(grant(s)).toEqual([]);
  });

  it("counts the owner's cap across keys and definitions; runs outside it pass", () => {
    const s = emptyGate();
    enqueue(s, capped('r1', 2));
    enqueue(s, capped('r2', 2, { group: 'wf_b/', limit: 5 }));
    enqueue(s, capped('r3', 2));
    enqueue(s, { run: 'child', group: 'wf_c/', limit: 1 });
    expect(grant(s)).toEqual(['r1', 'r2', 'child']);
    expect(placeOf(s, 'r3')).toEqual({ position: 1, reason: 'owner_cap' });
    release(s, 'child');
    expect(grant(s)).toEqual([]);
    release(s, 'r1');
    expect(grant(s)).toEqual(['r3']);
  });

  it('puts a run taking its slot back after a wait before every new run, behind earlier ones', () => {
    const s = emptyGate();
    enqueue(s, keyed('a1', 'k', 1));
    grant(s);
    enqueue(s, keyed('new1', 'k', 1));
    enqueue(s, { ...keyed('back1', 'k', 1), resume: true });
    enqueue(s, { ...keyed('back2', 'k', 1), resume: true });
    expect(s.queue.map((q) => q.run)).toEqual(['back1', 'back2', 'new1']);
    release(s, 'a1');
    expect(grant(s)).toEqual(['back1']);
  });

  it('takes the newest limit of a key, forgets keys with nobody left, and tells each waiting run once', () => {
    const s = emptyGate();
    enqueue(s, keyed('a1', 'k', 1));
    enqueue(s, keyed('a2', 'k', 1));
    grant(s);
    expect(untold(s)).toEqual(['a2']);
    expect(untold(s)).toEqual([]);
    enqueue(s, keyed('a3', 'k', 3));
    expect(s.limits).toEqual({ 'wf_a/k': 3 });
    expect(grant(s)).toEqual(['a2', 'a3']);
    expect(s.told).toEqual([]);
    for (const run of ['a1', 'a2', 'a3']) release(s, run);
    expect(s.limits).toEqual({});
    expect(idle(s)).toBe(true);
  });
});
