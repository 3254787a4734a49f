/** The loops' result budget and outcome bookkeeping (pure parts of loop-elements.ts). */
import { describe, expect, it } from 'vitest';
import { LOOP_OUTPUT_BUDGET, emptyOutcome, recordElement, withinBudget } from './loop-elements.js';

describe('loop element outcomes', () => {
  it('keeps whole results while the budget lasts, then only index, status and error code', () => {
    const budget = { left: 100 };
    const result = { index: 0, status: 'completed' as const, outputs: { shout: { results: ['x'] } } };
    const size = JSON.stringify(result).length; // 66 characters
    expect(withinBudget(result, budget)).toEqual({ result, dropped: false });
    expect(budget.left).toBe(100 - size);
    expect(withinBudget({ ...result, index: 1 }, budget)).toEqual({
      result: { index: 1, status: 'completed', outputs: {} },
      dropped: true,
    });
    const failed = {
      index: 2,
      status: 'failed' as const,
      outputs: { shout: { results: ['y'] } },
      error: { code: 'BAD_NAME', message: 'x'.repeat(2000), step: 'stop' },
    };
    expect(withinBudget(failed, budget)).toEqual({
      result: {
        index: 2,
        status: 'failed',
        outputs: {},
        error: { code: 'BAD_NAME', message: '', step: 'stop' },
      },
      dropped: true,
    });
    // A result a batch already cut down costs nothing again and is not counted twice.
    const cut = {
      index: 3,
      status: 'failed' as const,
      outputs: {},
      error: { code: 'X_Y', message: '', step: 's' },
    };
    expect(withinBudget(cut, { left: 0 })).toEqual({ result: cut, dropped: false });
  });

  it('a loop of 10,000 elements of 1 KiB each keeps the first ones whole and stays small', () => {
    const budget = { left: LOOP_OUTPUT_BUDGET };
    const outcome = emptyOutcome({ items: Array.from({ length: 10_000 }), offset: 0 });
    const output = { step: { text: 'y'.repeat(1024 - 20) } }; // 1,024 characters of JSON
    expect(JSON.stringify(output)).toHaveLength(1024);
    for (let i = 0; i < 10_000; i++)
      recordElement(outcome, i, { index: i, status: 'completed', outputs: output }, undefined, budget);
    const kept = outcome.results.filter((r) => Object.keys(r.outputs).length > 0).length;
    // Each whole entry is 1,024 characters of outputs plus its index and status (about 1,067).
    expect(kept).toBe(490);
    expect(outcome.completed).toBe(10_000);
    expect(outcome.dropped).toBe(10_000 - kept);
    expect(outcome.results[kept]).toEqual({ index: kept, status: 'completed', outputs: {} });
    expect(JSON.stringify(outcome.results).length).toBeLessThan(1024 * 1024);
  });

  it('counts failures, names the first five, and keeps the first one a fail step ended', () => {
    const budget = { left: LOOP_OUTPUT_BUDGET };
    const outcome = emptyOutcome({ items: Array.from({ length: 8 }), offset: 100 });
    expect(outcome.results[0]).toEqual({ index: 100, status: 'skipped', outputs: {} });
    for (let i = 0; i < 7; i++) {
      const error = { code: 'NOT_FOUND', message: 'The resource does not exist.' };
      const ended = i === 6 ? { ended: 's' } : {};
      recordElement(
        outcome,
        i,
        { index: 100 + i, status: 'failed', outputs: {}, error: { ...error, step: 's' } },
        { index: 100 + i, step: 's', error, ...ended },
        budget,
      );
    }
    expect(outcome.failed).toBe(7);
    expect(outcome.completed).toBe(0);
    expect(outcome.failures.map((f) => f.index)).toEqual([100, 101, 102, 103, 104]);
    expect(outcome.ended?.index).toBe(106);
    expect(outcome.results[7]!.status).toBe('skipped');
  });
});
