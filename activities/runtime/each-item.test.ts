import { describe, expect, it } from 'vitest';
import { eachItem } from './each-item.js';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('eachItem', () => {
  it('runs the items at once and keeps request order', async () => {
    let running = 0;
    let most = 0;
    const out = await eachItem([30, 10, 20, 5, 15], async (ms, i) => {
      running += 1;
      most = Math.max(most, running);
      await tick(ms);
      running -= 1;
      return `item ${i}`;
    });
    expect(out).toEqual(['item 0', 'item 1', 'item 2', 'item 3', 'item 4']);
    expect(most).toBe(5);
  });

  it('keeps to a concurrency bound', async () => {
    let running = 0;
    let most = 0;
    await eachItem(
      [1, 2, 3, 4, 5],
      async () => {
        running += 1;
        most = Math.max(most, running);
        await tick(5);
        running -= 1;
      },
      { concurrency: 2 },
    );
    expect(most).toBe(2);
  });

  it('aborts the other items on the first failure and throws it once all have settled', async () => {
    const settled: string[] = [];
    const boom = new Error('item 1 failed');
    const run = eachItem([0, 1, 2], async (_, i, signal) => {
      if (i === 1) {
        await tick(5);
        throw boom;
      }
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      settled.push(`item ${i} saw ${(signal.reason as Error).message}`);
      throw new Error(`item ${i} aborted`);
    });
    await expect(run).rejects.toBe(boom);
    expect(settled.sort()).toEqual(['item 0 saw item 1 failed', 'item 2 saw item 1 failed']);
  });

  it('starts no further item once one has failed', async () => {
    const started: number[] = [];
    const run = eachItem(
      [0, 1, 2, 3],
      async (_, i) => {
        started.push(i);
        await tick(1);
        if (i === 0) throw new Error('first');
      },
      { concurrency: 1 },
    );
    await expect(run).rejects.toThrow('first');
    expect(started).toEqual([0]);
  });

  it("passes the caller's cancellation to every item", async () => {
    const caller = new AbortController();
    const run = eachItem(
      [0, 1],
      (_, __, signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
        ),
      { signal: caller.signal },
    );
    caller.abort(new Error('cancelled'));
    await expect(run).rejects.toThrow('cancelled');
  });
});
