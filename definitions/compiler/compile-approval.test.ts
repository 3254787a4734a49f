/**
 * `wait_for_approval` at compile time: the plan step, its typed output (decision, the declared
 * payload fields), and every diagnostic at its line and column.
 */
import { describe, expect, it } from 'vitest';
import { compileForTest, manualWithTextInput, positionsOf, withSteps } from '../testing/compile.js';

const APPROVAL = `  - id: ok
    wait_for_approval:
      title: 'Register {{inputs.name}}?'
      payload: { budget: { type: number, required: true }, note: { type: string } }
      timeout: 24h
`;
const source = (steps: string) => withSteps(steps, manualWithTextInput('name'));
const compile = (steps: string) => compileForTest(source(steps));

describe('wait_for_approval', () => {
  it('compiles to an approval step; later steps read its typed output', () => {
    const res = compile(
      `${APPROVAL}  - id: go\n    if: $nodes.ok.output.decision == 'approved' && $nodes.ok.output.payload.budget > 3\n    send_chat_message: { title: t, message: '{{steps.ok.payload.note}} by {{steps.ok.decided_by}} at {{steps.ok.decided_at}}' }\n`,
    );
    expect(res.ok && res.plan.steps[0]).toEqual({
      id: 'ok',
      kind: 'approval',
      continueOnError: false,
      title: [
        { kind: 'text', text: 'Register ' },
        { kind: 'value', expr: { kind: 'ref', ref: { root: 'inputs', name: 'name', path: [] } } },
        { kind: 'text', text: '?' },
      ],
      payload: { budget: { type: 'number', required: true }, note: { type: 'string', required: false } },
      timeoutMs: 24 * 3600_000,
      onTimeout: 'fail',
    });
  });

  it('types object and array payload fields; any path under an object field reads', () => {
    const res = compile(
      `  - id: ok\n    wait_for_approval:\n      title: t\n      timeout: 1h\n      payload: { meta: { type: object }, tags: { type: array } }\n  - id: go\n    send_chat_message: { title: t, message: '{{steps.ok.payload.meta.owner.name}} {{len steps.ok.payload.tags}}' }\n`,
    );
    expect(res.ok ? [] : res.diagnostics.map((d) => d.code)).toEqual([]);
    expect(res.ok && res.plan.steps[0]).toMatchObject({
      payload: { meta: { type: 'object', required: false }, tags: { type: 'array', required: false } },
    });
  });

  it.each([
    [
      'a field the payload does not declare',
      `${APPROVAL}  - id: go\n    send_chat_message: { title: t, message: '{{steps.ok.payload.nope}}' }\n`,
      ['UNKNOWN_OUTPUT_FIELD', 'steps[1].send_chat_message.message', 13, 48],
    ],
    [
      'a timeout under a minute',
      `  - id: ok\n    wait_for_approval: { title: t, timeout: 30s }\n`,
      ['INVALID_DURATION', 'steps[0].wait_for_approval.timeout', 8, 45],
    ],
    [
      'a timeout over 30 days',
      `  - id: ok\n    wait_for_approval: { title: t, timeout: 31d }\n`,
      ['INVALID_DURATION', 'steps[0].wait_for_approval.timeout', 8, 45],
    ],
    [
      'a malformed payload field name',
      `  - id: ok\n    wait_for_approval: { title: t, timeout: 1h, payload: { Budget: { type: number } } }\n`,
      ['INVALID_INPUT_NAME', 'steps[0].wait_for_approval.payload.Budget', 8, 60],
    ],
    [
      'an unknown on_timeout',
      `  - id: ok\n    wait_for_approval: { title: t, timeout: 1h, on_timeout: retry }\n`,
      ['INVALID_VALUE', 'steps[0].wait_for_approval.on_timeout', 8, 61],
    ],
    [
      'a missing timeout',
      `  - id: ok\n    wait_for_approval: { title: t }\n`,
      ['MISSING_FIELD', 'steps[0].wait_for_approval', 8, 24],
    ],
    [
      'a retry on the step',
      `  - id: ok\n    wait_for_approval: { title: t, timeout: 1h }\n    retry: { max_attempts: 2 }\n`,
      ['UNKNOWN_FIELD', 'steps[0].retry', 9, 5],
    ],
    [
      'an approval inside a for_each',
      `  - id: each\n    for_each:\n      items: [a, b]\n      steps:\n        - id: ok\n          wait_for_approval: { title: t, timeout: 1h }\n`,
      ['APPROVAL_IN_LOOP', 'steps[0].for_each.steps[0].wait_for_approval', 12, 11],
    ],
    [
      'an unknown reference in the title',
      `  - id: ok\n    wait_for_approval: { title: '{{inputs.nope}}', timeout: 1h }\n`,
      ['UNKNOWN_INPUT', 'steps[0].wait_for_approval.title', 8, 36],
    ],
  ])('reports %s at its position', (_name, steps, expected) => {
    expect(positionsOf(source(steps))).toEqual([expected]);
  });

  it('says why, without quoting the source', () => {
    const res = compile(`  - id: ok\n    wait_for_approval: { title: t, timeout: 45d }\n`);
    expect(res.ok ? [] : res.diagnostics.map((d) => d.message)).toEqual([
      'An approval timeout is a duration from 1m to 30d, such as 24h.',
    ]);
  });

  it('is allowed inside parallel and on_error', () => {
    const res = compile(
      `  - id: both\n    parallel:\n      steps:\n        - id: a\n          wait_for_approval: { title: a, timeout: 1h, on_timeout: continue }\n        - id: b\n          wait_for_approval: { title: b, timeout: 1h }\n    on_error:\n      - id: c\n        wait_for_approval: { title: '{{error.code}}', timeout: 1h }\n`,
    );
    expect(res.ok ? [] : res.diagnostics).toEqual([]);
  });
});
