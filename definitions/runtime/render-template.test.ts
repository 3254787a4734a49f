import { describe, expect, it } from 'vitest';
import type { RunScope, TemplateNode, ValueExpr } from './plan.js';
import { RENDER_BUDGET, RenderBudget, TemplateBudgetError } from './budget.js';
import { renderTemplate, toText } from './render-template.js';

const ref = (step: string, ...path: Array<string | number>): ValueExpr => ({
  kind: 'ref',
  ref: { root: 'steps', step, path },
});
const value = (expr: ValueExpr): TemplateNode => ({ kind: 'value', expr });

const scope: RunScope = {
  inputs: {},
  steps: { search: { result_count: 0, results: [], raw: { results: [{ a: 1 }] }, label: null, flag: false } },
};

describe('toText', () => {
  it('renders strings as written, scalars via String, objects as compact JSON and null/undefined as empty', () => {
    expect([toText('a'), toText(3.5), toText(false), toText(null), toText(undefined)]).toEqual([
      'a',
      '3.5',
      'false',
      '',
      '',
    ]);
    expect(toText({ a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
  });
});

describe('renderTemplate', () => {
  it('renders embedded values as text', () => {
    const nodes: TemplateNode[] = [
      value(ref('search', 'result_count')),
      { kind: 'text', text: ' / ' },
      value(ref('search', 'raw')),
      value(ref('search', 'label')),
    ];
    expect(renderTemplate(nodes, scope)).toBe('0 / {"results":[{"a":1}]}');
  });

  it('treats 0, false, null and [] as false in #if, and renders #each else for empty lists', () => {
    const ifNode = (cond: ValueExpr): TemplateNode => ({
      kind: 'if',
      negate: false,
      cond,
      then: [{ kind: 'text', text: 'T' }],
      else: [{ kind: 'text', text: 'F' }],
    });
    const each: TemplateNode = {
      kind: 'each',
      list: ref('search', 'results'),
      body: [],
      else: [{ kind: 'text', text: 'none' }],
    };
    const nodes = [
      ifNode(ref('search', 'result_count')),
      ifNode(ref('search', 'flag')),
      ifNode(ref('search', 'results')),
      ifNode(ref('search', 'raw')),
      each,
    ];
    expect(renderTemplate(nodes, scope)).toBe('FFFTnone');
  });

  it('yields empty text for prototype paths even in a hand-made plan', () => {
    const evil: TemplateNode[] = [
      value(ref('search', 'constructor')),
      value(ref('search', '__proto__')),
      value(ref('search', 'raw', 'toString')),
      value(ref('search', 'results', 'constructor', 'name')),
      value({ kind: 'ref', ref: { root: 'steps', step: '__proto__', path: [] } }),
      value({ kind: 'ref', ref: { root: 'inputs', name: 'hasOwnProperty', path: [] } }),
    ];
    expect(renderTemplate(evil, scope)).toBe('');
  });

  it('does not read inherited properties of data', () => {
    const inherited = Object.create({ secret: 'from prototype' }) as Record<string, unknown>;
    const nodes = [value(ref('x', 'secret'))];
    expect(renderTemplate(nodes, { inputs: {}, steps: { x: inherited } })).toBe('');
  });

  it('applies helpers', () => {
    const helper = (name: 'len' | 'json' | 'default', ...args: ValueExpr[]): TemplateNode =>
      value({ kind: 'helper', name, args });
    const lit = (v: string | number | null): ValueExpr => ({ kind: 'literal', value: v });
    const nodes = [
      helper('len', ref('search', 'raw', 'results')),
      helper('len', lit('abc')),
      helper('json', ref('search', 'label')),
      helper('json', ref('search', 'missing')),
      helper('default', ref('search', 'label'), lit('-')),
      helper('default', ref('search', 'result_count'), lit('-')),
    ];
    expect(renderTemplate(nodes, scope)).toBe('13nullnull-0');
  });
});

describe('renderTemplate budget', () => {
  const items = (n: number) => Array.from({ length: n }, (_, i) => i);
  const loop = (body: TemplateNode[]): TemplateNode => ({
    kind: 'each',
    list: { kind: 'ref', ref: { root: 'inputs', name: 'items', path: [] } },
    body,
    else: [],
  });
  const x: TemplateNode = { kind: 'text', text: 'x' };

  it('renders exactly up to the iteration budget', () => {
    const nodes = [loop([loop([x])])];
    const out = renderTemplate(nodes, { inputs: { items: items(99) }, steps: {} });
    expect(out).toBe('x'.repeat(99 * 99));
  });

  it('throws TEMPLATE_TOO_LARGE once nested loops pass the iteration budget, before finishing the work', () => {
    const nodes = [loop([loop([loop([x])])])];
    const err = (() => {
      try {
        renderTemplate(nodes, { inputs: { items: items(400) }, steps: {} });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(TemplateBudgetError);
    expect(err).toMatchObject({
      code: 'TEMPLATE_TOO_LARGE',
      limit: 'iterations',
      max: RENDER_BUDGET.maxIterations,
      message: 'The template renders more than the budget allows.',
    });
  });

  it('throws TEMPLATE_TOO_LARGE when the output passes the character budget', () => {
    const big = 'y'.repeat(20_000);
    const nodes = [
      loop([{ kind: 'value', expr: { kind: 'ref', ref: { root: 'inputs', name: 'big', path: [] } } }]),
    ];
    expect(() => renderTemplate(nodes, { inputs: { items: items(6), big }, steps: {} })).not.toThrow();
    expect(() => renderTemplate(nodes, { inputs: { items: items(7), big }, steps: {} })).toThrow(
      expect.objectContaining({ code: 'TEMPLATE_TOO_LARGE', limit: 'characters', max: 128 * 1024 }),
    );
  });

  it('shares one budget between renders given the same budget object', () => {
    const nodes = [loop([x])];
    const budget = new RenderBudget({ ...RENDER_BUDGET, maxIterations: 5, maxChars: 100 });
    const run = { inputs: { items: items(3) }, steps: {} };
    expect(renderTemplate(nodes, run, budget)).toBe('xxx');
    expect(() => renderTemplate(nodes, run, budget)).toThrow(TemplateBudgetError);
  });
});
