import { describe, expect, it } from 'vitest';
import { GroupDeadlineError, sleep, startDeadline } from './deadline.js';
import { OperationLimiter } from './operation-limiter.js';

/** A promise with its resolver, to hold an operation open. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

describe('OperationLimiter', () => {
  it('never runs more than 2 operations at once and grants slots in FIFO order', async () => {
    const limiter = new OperationLimiter(2);
    const gates = Array.from({ length: 5 }, gate);
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      limiter.run(async () => {
        started.push(i);
        await g.promise;
      }),
    );
    await sleep(5);
    expect(started).toEqual([0, 1]);
    expect(limiter.stats().inFlight).toBe(2);
    gates[1]!.open();
    await sleep(5);
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    await Promise.all(runs);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(limiter.stats()).toMatchObject({ capacity: 2, operations: 5, maxInFlight: 2, inFlight: 0 });
  });

  it('measures busy slot-time and waiting with an injected clock', async () => {
    let t = 0;
    const limiter = new OperationLimiter(2, () => t);
    const a = gate();
    const b = gate();
    const c = gate();
    const runs = [a, b, c].map((g) => limiter.run(() => g.promise));
    t = 100;
    a.open();
    await sleep(1);
    t = 250;
    b.open();
    c.open();
    await Promise.all(runs);
    // a: 0-100, b: 0-250, c: 100-250 → 100 + 250 + 150 slot-ms; c waited 100 ms.
    expect(limiter.stats()).toMatchObject({ busyMs: 500, waitMs: 100, operations: 3 });
  });

  it('releases the slot when the operation throws', async () => {
    const limiter = new OperationLimiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limiter.run(() => Promise.resolve(7))).resolves.toBe(7);
    expect(limiter.stats().inFlight).toBe(0);
  });

  it('a wait aborted by the deadline never starts the operation and frees its queue place', async () => {
    const limiter = new OperationLimiter(1);
    const held = gate();
    const holder = limiter.run(() => held.promise);
    const deadline = startDeadline(30);
    let ran = false;
    const waiting = limiter.run(() => {
      ran = true;
      return Promise.resolve();
    }, deadline.signal);
    await expect(waiting).rejects.toBeInstanceOf(GroupDeadlineError);
    expect(deadline.expired).toBe(true);
    held.open();
    await holder;
    expect(ran).toBe(false);
    expect(limiter.stats()).toMatchObject({ operations: 1, inFlight: 0 });
    deadline.dispose();
  });

  it('rejects a capacity below 1', () => {
    expect(() => new OperationLimiter(0)).toThrow(RangeError);
  });
});

describe('startDeadline', () => {
  it('aborts with the parent reason (not a deadline) when the caller cancels', () => {
    const parent = new AbortController();
    const deadline = startDeadline(10_000, parent.signal);
    parent.abort(new Error('cancelled'));
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.expired).toBe(false);
    expect(deadline.remainingMs()).toBe(0);
    deadline.dispose();
  });
});
