import { describe, expect, it } from 'vitest';
import { applyRunInputs, oversizedRunInput } from './run-inputs.js';

describe('applyRunInputs', () => {
  const specs = {
    keyword: { type: 'string' as const, required: true },
    limit: { type: 'integer' as const, required: false, default: 5 },
    tags: { type: 'array' as const, required: false },
  };

  it('fills defaults and keeps given values', () => {
    expect(applyRunInputs(specs, { keyword: 'cedar' })).toEqual({
      ok: true,
      inputs: { keyword: 'cedar', limit: 5 },
    });
    expect(applyRunInputs(specs, { keyword: 'x', limit: 2, tags: ['a'] })).toEqual({
      ok: true,
      inputs: { keyword: 'x', limit: 2, tags: ['a'] },
    });
  });

  it('reports unknown, missing and mistyped inputs together', () => {
    expect(applyRunInputs(specs, { limit: 2.5, extra: 1 })).toEqual({
      ok: false,
      issues: [
        { path: 'inputs', message: 'holds an input the definition does not declare', input: 'extra' },
        { path: 'inputs.keyword', message: 'is required' },
        { path: 'inputs.limit', message: 'must be of type integer' },
      ],
    });
  });

  it('names undeclared keys only when they have the input-name form, never quoting other keys', () => {
    expect(applyRunInputs(specs, { keyword: 'x', '°À?E': 1, 'Bad Key': 2, other: 3 })).toEqual({
      ok: false,
      issues: [
        { path: 'inputs', message: 'holds an input the definition does not declare', input: 'other' },
        { path: 'inputs', message: 'holds an input the definition does not declare' },
      ],
    });
  });
});

describe('oversizedRunInput', () => {
  it('names the input that takes the total past the limit, counting names and JSON', () => {
    // "a" + "\"xxxx\"" = 7, "b" + "[1,2]" = 6
    expect(oversizedRunInput({ a: 'xxxx', b: [1, 2] }, 13)).toBeUndefined();
    expect(oversizedRunInput({ a: 'xxxx', b: [1, 2] }, 12)).toEqual({
      path: 'inputs.b',
      message: 'takes the run inputs past 12 characters of JSON in total',
    });
    expect(oversizedRunInput({ a: 'xxxx' }, 6)).toEqual({
      path: 'inputs.a',
      message: 'takes the run inputs past 6 characters of JSON in total',
    });
    expect(oversizedRunInput({ 'Ä b': 'xxxx' }, 6)).toEqual({
      path: 'inputs',
      message: 'takes the run inputs past 6 characters of JSON in total',
    });
  });
});
