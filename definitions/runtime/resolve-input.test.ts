import { describe, expect, it } from 'vitest';
import type { InputTemplate, RunScope } from './plan.js';
import { RENDER_BUDGET, RenderBudget } from './budget.js';
import { resolveInput } from './resolve-input.js';

const scope: RunScope = {
  inputs: { keyword: 'cedar', max: 7 },
  steps: { search: { result_count: 2, results: [{ fqdn: 'a.com' }, { fqdn: 'b.io' }] } },
};

describe('resolveInput', () => {
  it('keeps the type of whole-string references and renders embedded ones as text', () => {
    const template: InputTemplate = {
      kind: 'object',
      fields: [
        {
          key: 'count',
          value: { kind: 'ref', ref: { root: 'steps', step: 'search', path: ['result_count'] } },
        },
        {
          key: 'names',
          value: { kind: 'ref', ref: { root: 'steps', step: 'search', path: ['results', '[]', 'fqdn'] } },
        },
        { key: 'max', value: { kind: 'ref', ref: { root: 'inputs', name: 'max', path: [] } } },
        {
          key: 'query',
          value: {
            kind: 'text',
            template: [
              { kind: 'value', expr: { kind: 'ref', ref: { root: 'inputs', name: 'keyword', path: [] } } },
              { kind: 'text', text: '-' },
              { kind: 'value', expr: { kind: 'ref', ref: { root: 'inputs', name: 'max', path: [] } } },
            ],
          },
        },
        { key: 'gone', value: { kind: 'ref', ref: { root: 'steps', step: 'search', path: ['nope'] } } },
        {
          key: 'list',
          value: {
            kind: 'array',
            items: [
              { kind: 'literal', value: 'x' },
              { kind: 'ref', ref: { root: 'steps', step: 'search', path: ['results', 1] } },
            ],
          },
        },
      ],
    };
    expect(resolveInput(template, scope)).toEqual({
      count: 2,
      names: ['a.com', 'b.io'],
      max: 7,
      query: 'cedar-7',
      list: ['x', { fqdn: 'b.io' }],
    });
  });

  it('returns copies, never the plan literal or the scope data itself', () => {
    const literal = { requests: [{ query: 'cedar' }] };
    const resolved = resolveInput({ kind: 'literal', value: literal }, scope) as typeof literal;
    resolved.requests[0]!.query = 'changed';
    expect(literal.requests[0]?.query).toBe('cedar');
    const results = resolveInput(
      { kind: 'ref', ref: { root: 'steps', step: 'search', path: ['results'] } },
      scope,
    ) as unknown[];
    results.pop();
    expect((scope.steps.search as { results: unknown[] }).results).toHaveLength(2);
  });

  it('sets a __proto__ key as data, not as the prototype', () => {
    const template: InputTemplate = {
      kind: 'object',
      fields: [{ key: '__proto__', value: { kind: 'literal', value: { polluted: true } } }],
    };
    const out = resolveInput(template, scope) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(out.polluted).toBeUndefined();
  });
});

describe('resolveInput budget', () => {
  it('charges every text template of one input to one render budget', () => {
    // Each field alone renders 3 iterations; the budget of 5 runs out in the second field.
    const loop: InputTemplate = {
      kind: 'text',
      template: [
        {
          kind: 'each',
          list: { kind: 'ref', ref: { root: 'inputs', name: 'items', path: [] } },
          body: [{ kind: 'text', text: 'x' }],
          else: [],
        },
      ],
    };
    const template: InputTemplate = { kind: 'array', items: [loop, loop] };
    const run = { inputs: { items: [1, 2, 3] }, steps: {} };
    expect(resolveInput(template, run)).toEqual(['xxx', 'xxx']);
    const small = new RenderBudget({ ...RENDER_BUDGET, maxIterations: 5 });
    expect(() => resolveInput(template, run, small)).toThrow(
      expect.objectContaining({ code: 'TEMPLATE_TOO_LARGE', limit: 'iterations', max: 5 }),
    );
  });
});
