import { describe, expect, it } from 'vitest';
import { boundedJson, JsonBoundError, MAX_VALUE_DEPTH } from './bounded-json.js';
import { TemplateBudgetError } from './budget.js';

describe('boundedJson', () => {
  it('writes the same text as JSON.stringify for JSON data', () => {
    const own = JSON.parse('{"__proto__":{"x":1},"a":1}') as unknown;
    const values: unknown[] = [
      null,
      true,
      0,
      -0,
      1.5e-7,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '',
      'quote " backslash \\ newline \n tab \t nul \u0000 emoji 😀 lone \ud800',
      [],
      {},
      [1, 'a', null, undefined, { b: [true, false] }],
      { z: 1, a: undefined, '1': 'one', '01': 'zero-one', nested: { list: [[], [{}]] } },
      own,
    ];
    for (const value of values) expect(boundedJson(value, 10_000)).toBe(JSON.stringify(value));
    expect(boundedJson(undefined, 10)).toBeUndefined();
  });

  it('fits exactly at the bound and throws one character past it, before building the text', () => {
    const value = { text: 'x'.repeat(100) };
    const length = JSON.stringify(value).length;
    expect(boundedJson(value, length)).toBe(JSON.stringify(value));
    expect(() => boundedJson(value, length - 1)).toThrow(JsonBoundError);
    // A string far past the bound is refused by its length, without escaping it.
    expect(() => boundedJson('"'.repeat(5_000_000), 1_000)).toThrow(JsonBoundError);
  });

  it('refuses values nested deeper than the depth limit with TEMPLATE_TOO_LARGE', () => {
    let deep: unknown = 0;
    for (let i = 0; i < MAX_VALUE_DEPTH; i++) deep = [deep];
    expect(boundedJson(deep, 10_000)).toBe(JSON.stringify(deep));
    expect(() => boundedJson([deep], 10_000)).toThrow(TemplateBudgetError);
  });
});
