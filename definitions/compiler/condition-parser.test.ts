import { describe, expect, it } from 'vitest';
import { evaluateCondition } from '../runtime/evaluate-condition.js';
import type { RunScope } from '../runtime/plan.js';
import { diagnosticsOf, planOf, SEARCH_STEP, withSteps } from '../testing/compile.js';
import { parseCondition } from './condition-parser.js';

const parse = (text: string) => {
  const parsed = parseCondition(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed;
};

describe('parseCondition', () => {
  it('builds an AST with precedence ! > comparison > && > ||', () => {
    expect(parse('!inputs.a || $nodes.s.output.n >= 2 && inputs.b == "x"').node).toEqual({
      kind: 'or',
      left: { kind: 'not', operand: { kind: 'ref', ref: { root: 'inputs', name: 'a', path: [] } } },
      right: {
        kind: 'and',
        left: {
          kind: 'compare',
          op: '>=',
          left: { kind: 'ref', ref: { root: 'steps', step: 's', path: ['n'] } },
          right: { kind: 'literal', value: 2 },
        },
        right: {
          kind: 'compare',
          op: '==',
          left: { kind: 'ref', ref: { root: 'inputs', name: 'b', path: [] } },
          right: { kind: 'literal', value: 'x' },
        },
      },
    });
  });

  it('parses literals, parentheses, indices and projections, and returns reference offsets', () => {
    const parsed = parse("(steps.s.results[0].fqdn != 'a\\'b') && $nodes.s.output.results[].premium == null");
    expect(parsed.refs.map((r) => r.offset)).toEqual([1, 39]);
    expect(parsed.refs[1]?.ref).toEqual({ root: 'steps', step: 's', path: ['results', '[]', 'premium'] });
    expect(parse('true && -1.5 < 0 || false').node).toMatchObject({
      kind: 'or',
      right: { kind: 'literal', value: false },
    });
  });

  it.each([
    ['inputs.a ==', 'Unexpected end of expression; expected a value.', 11],
    ['inputs.a = 1', 'Unexpected text after a complete expression; join parts with && or ||.', 9],
    ['count > 0', 'Unknown name; use $nodes.<step>.output.<field>, inputs.<name> or a literal.', 0],
    ['$nodes.s.results', 'Expected ".output" after the step id.', 8],
    ['(inputs.a', 'Expected ")".', 9],
    ['"open', 'Unterminated string.', 5],
    ['inputs.a[x]', 'Expected "[<index>]" or "[]".', 8],
  ])('rejects %s', (text, message, offset) => {
    expect(parseCondition(text)).toEqual({ ok: false, message, offset });
  });
});

describe('step conditions', () => {
  const manual = '  manual:\n    inputs:\n      notify: { type: boolean, default: true }';
  const chatIf = (condition: string) =>
    `  - id: notify\n    if: ${condition}\n    send_chat_message: { title: t, message: m }\n`;

  it('compiles and evaluates against earlier outputs and inputs', () => {
    const plan = planOf(
      withSteps(
        SEARCH_STEP + chatIf('$nodes.search.output.result_count > 0 && inputs.notify == true'),
        manual,
      ),
    );
    const condition = plan.steps[1]?.if;
    if (!condition) throw new Error('no condition');
    const scope = (count: number, notify: boolean): RunScope => ({
      inputs: { notify },
      steps: { search: { result_count: count } },
    });
    expect(evaluateCondition(condition, scope(3, true))).toBe(true);
    expect(evaluateCondition(condition, scope(0, true))).toBe(false);
    expect(evaluateCondition(condition, scope(3, false))).toBe(false);
  });

  it('takes a quoted expression that starts with ! (unquoted, YAML reads it as a tag)', () => {
    const plan = planOf(withSteps(SEARCH_STEP + chatIf("'!inputs.notify'"), manual));
    expect(plan.steps[1]?.if).toEqual({
      kind: 'not',
      operand: { kind: 'ref', ref: { root: 'inputs', name: 'notify', path: [] } },
    });
    expect(diagnosticsOf(withSteps(SEARCH_STEP + chatIf('!inputs.notify'), manual))[0]).toMatchObject({
      code: 'TAG_NOT_ALLOWED',
    });
  });

  it('points syntax errors and bad references inside the expression', () => {
    // Line 13 is `    if: ...`; the expression starts at column 9.
    expect(diagnosticsOf(withSteps(SEARCH_STEP + chatIf('inputs.notify &&'), manual))).toMatchObject([
      { code: 'CONDITION_SYNTAX', path: 'steps[1].if', line: 13, column: 25 },
    ]);
    expect(
      diagnosticsOf(withSteps(SEARCH_STEP + chatIf('inputs.notify && $nodes.notify.output.x'), manual)),
    ).toMatchObject([{ code: 'FORWARD_REFERENCE', path: 'steps[1].if', line: 13, column: 26 }]);
    expect(
      diagnosticsOf(withSteps(SEARCH_STEP + chatIf('$nodes.search.output.count > 1'), manual)),
    ).toMatchObject([{ code: 'UNKNOWN_OUTPUT_FIELD', line: 13, column: 9 }]);
  });

  it('refuses a number literal past the safe-integer range at its column, and keeps one inside it', () => {
    const huge = '9'.repeat(400);
    expect(diagnosticsOf(withSteps(SEARCH_STEP + chatIf(`inputs.count > ${huge}`), manual))).toEqual([
      expect.objectContaining({
        code: 'CONDITION_SYNTAX',
        path: 'steps[1].if',
        line: 13,
        column: 24,
        message: expect.stringContaining('A number literal must lie within ±9007199254740991.'),
      }),
    ]);
    expect(parse('inputs.count > -9007199254740991').node).toMatchObject({
      kind: 'compare',
      right: { kind: 'literal', value: -9007199254740991 },
    });
    expect(parseCondition('inputs.count > 9007199254740992')).toMatchObject({ ok: false, offset: 15 });
  });
});

describe('conditions on steps that may have been skipped', () => {
  it('treats a missing output as null', () => {
    const parsed = parseCondition('$nodes.search.output.result_count != null');
    if (!parsed.ok) throw new Error(parsed.message);
    expect(evaluateCondition(parsed.node, { inputs: {}, steps: {} })).toBe(false);
    expect(evaluateCondition(parsed.node, { inputs: {}, steps: { search: { result_count: 0 } } })).toBe(true);
  });
});
