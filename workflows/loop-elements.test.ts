/** The loop's output budget and outcome bookkeeping (pure parts of loop-elements.ts). */
import { describe, expect, it } from 'vitest';
import { LOOP_OUTPUT_BUDGET, emptyOutcome, recordElement, withinBudget } from './loop-elements.js';

describe('loop element outcomes', () => {
  it('keeps outputs while the budget lasts, then keeps none and counts them', () => {
    const budget = { left: 40 };
    const big = { shout: { results: ['x'.repeat(10)] } }; // 36 characters of JSON
    expect(withinBudget(big, budget)).toEqual({ outputs: big, dropped: false });
    expect(budget.left).toBe(4);
    expect(withinBudget(big, budget)).toEqual({ outputs: {}, dropped: true });
    expect(budget.left).toBe(4);
  });

  it('a loop of 10,000 elements of 1 KiB each keeps about the first 500 outputs', () => {
    const budget = { left: LOOP_OUTPUT_BUDGET };
    const outcome = emptyOutcome({ items: Array.from({ length: 10_000 }), offset: 0 });
    const output = { step: { text: 'y'.repeat(1024 - 20) } }; // 1,024 characters of JSON
    expect(JSON.stringify(output)).toHaveLength(1024);
    for (let i = 0; i < 10_000; i++)
      recordElement(outcome, i, { index: i, status: 'completed', outputs: output }, undefined, budget);
    expect(outcome.completed).toBe(10_000);
    expect(outcome.dropped).toBe(10_000 - 512);
    expect(outcome.results[511]!.outputs).toEqual(output);
    expect(outcome.results[512]).toEqual({ index: 512, status: 'completed', outputs: {} });
    expect(JSON.stringify(outcome.results).length).toBeLessThan(1024 * 1024);
  });

  it('counts failures and names the first five', () => {
    const budget = { left: LOOP_OUTPUT_BUDGET };
    const outcome = emptyOutcome({ items: Array.from({ length: 8 }), offset: 100 });
    expect(outcome.results[0]).toEqual({ index: 100, status: 'skipped', outputs: {} });
    for (let i = 0; i < 7; i++) {
      const error = { code: 'NOT_FOUND', message: 'The resource does not exist.' };
      recordElement(
        outcome,
        i,
        { index: 100 + i, status: 'failed', outputs: {}, error: { ...error, step: 's' } },
        { index: 100 + i, step: 's', error },
        budget,
      );
    }
    expect(outcome.failed).toBe(7);
    expect(outcome.completed).toBe(0);
    expect(outcome.failures.map((f) => f.index)).toEqual([100, 101, 102, 103, 104]);
    expect(outcome.results[7]!.status).toBe('skipped');
  });
});
