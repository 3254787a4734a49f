import { describe, expect, it } from 'vitest';
import { applyRunInputs } from './run-inputs.js';

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
        { path: 'extra', message: 'Unknown run input "extra".' },
        { path: 'keyword', message: 'Missing required run input "keyword".' },
        { path: 'limit', message: 'Run input "limit" must be of type integer.' },
      ],
    });
  });
});
