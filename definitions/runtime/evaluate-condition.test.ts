import { describe, expect, it } from 'vitest';
import { evaluateCondition } from './evaluate-condition.js';
import type { CompareOp, ConditionNode, RunScope } from './plan.js';

const scope: RunScope = {
  inputs: { flag: true, name: 'b', zero: 0 },
  steps: { s: { n: 3, list: [1, { a: 2 }], empty: [], obj: { x: 1 } } },
};
const step = (...path: Array<string | number>): ConditionNode => ({
  kind: 'ref',
  ref: { root: 'steps', step: 's', path },
});
const input = (name: string): ConditionNode => ({ kind: 'ref', ref: { root: 'inputs', name, path: [] } });
const lit = (value: string | number | boolean | null): ConditionNode => ({ kind: 'literal', value });
const cmp = (left: ConditionNode, op: CompareOp, right: ConditionNode): ConditionNode => ({
  kind: 'compare',
  op,
  left,
  right,
});
const run = (node: ConditionNode) => evaluateCondition(node, scope);

describe('evaluateCondition', () => {
  it('compares numbers and strings, and is false for mixed ordering', () => {
    expect([
      run(cmp(step('n'), '>', lit(2))),
      run(cmp(step('n'), '<=', lit(2))),
      run(cmp(input('name'), '<', lit('c'))),
    ]).toEqual([true, false, true]);
    expect([run(cmp(lit('3'), '<', lit(4))), run(cmp(step('missing'), '>', lit(-1)))]).toEqual([
      false,
      false,
    ]);
  });

  it('uses strict, deep equality where a missing value equals null', () => {
    expect(run(cmp(step('n'), '==', lit('3')))).toBe(false);
    expect(run(cmp(step('missing'), '==', lit(null)))).toBe(true);
    expect(run(cmp(step('list'), '==', step('list')))).toBe(true);
    expect(run(cmp(step('obj'), '!=', step('list', 1)))).toBe(true);
  });

  it('applies truthiness to bare references and combines with ! && ||', () => {
    expect([run(step('empty')), run(step('obj')), run(input('zero')), run(input('flag'))]).toEqual([
      false,
      true,
      false,
      true,
    ]);
    const node: ConditionNode = {
      kind: 'or',
      left: { kind: 'not', operand: input('flag') },
      right: { kind: 'and', left: step('list'), right: input('zero') },
    };
    expect(run(node)).toBe(false);
  });

  it('cannot reach inherited properties', () => {
    expect(run(step('constructor'))).toBe(false);
    expect(run(cmp(step('obj', 'hasOwnProperty'), '==', lit(null)))).toBe(true);
  });
});
