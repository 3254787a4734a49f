/**
 * `wait_for_event` and `start_when.event` at compile time: the plan step and trigger, the typed
 * output, and every diagnostic at its line and column, without quoting the source.
 */
import { describe, expect, it } from 'vitest';
import { compileForTest, manualWithTextInput, positionsOf, withSteps } from '../testing/compile.js';

const source = (steps: string) => withSteps(steps, manualWithTextInput('order'));
const compile = (steps: string) => compileForTest(source(steps));

describe('wait_for_event', () => {
  it('compiles to an event wait; later steps read its output', () => {
    const res = compile(
      `  - id: paid\n    wait_for_event: { name: order.paid, match: { order_id: '{{inputs.order}}' }, timeout: 7d }\n  - id: go\n    if: $nodes.paid.output.received == true\n    send_chat_message: { title: t, message: '{{steps.paid.data.amount}}' }\n`,
    );
    expect(res.ok ? res.plan.steps[0] : res.diagnostics).toEqual({
      id: 'paid',
      kind: 'event_wait',
      continueOnError: false,
      name: 'order.paid',
      match: {
        order_id: [
          { kind: 'value', expr: { kind: 'ref', ref: { root: 'inputs', name: 'order', path: [] } } },
        ],
      },
      timeoutMs: 7 * 24 * 3600_000,
      onTimeout: 'fail',
    });
  });

  it.each([
    [
      'a malformed name',
      `  - id: w\n    wait_for_event: { name: Order.Paid, timeout: 1h }\n`,
      ['INVALID_EVENT_NAME', 'steps[0].wait_for_event.name', 8, 29],
    ],
    [
      'a timeout under a minute',
      `  - id: w\n    wait_for_event: { name: a, timeout: 59s }\n`,
      ['INVALID_DURATION', 'steps[0].wait_for_event.timeout', 8, 41],
    ],
    [
      'a timeout over 30 days',
      `  - id: w\n    wait_for_event: { name: a, timeout: 31d }\n`,
      ['INVALID_DURATION', 'steps[0].wait_for_event.timeout', 8, 41],
    ],
    [
      'a malformed match field',
      `  - id: w\n    wait_for_event: { name: a, timeout: 1h, match: { Order: x } }\n`,
      ['INVALID_VALUE', 'steps[0].wait_for_event.match.Order', 8, 54],
    ],
    [
      'a match value that is not text',
      `  - id: w\n    wait_for_event: { name: a, timeout: 1h, match: { order: 3 } }\n`,
      ['INVALID_TYPE', 'steps[0].wait_for_event.match.order', 8, 61],
    ],
    [
      'an unknown reference in a match value',
      `  - id: w\n    wait_for_event: { name: a, timeout: 1h, match: { order: '{{inputs.nope}}' } }\n`,
      ['UNKNOWN_INPUT', 'steps[0].wait_for_event.match.order', 8, 64],
    ],
    [
      'an event wait inside a for_each',
      `  - id: each\n    for_each:\n      items: [a, b]\n      steps:\n        - id: w\n          wait_for_event: { name: a, timeout: 1h }\n`,
      ['EVENT_WAIT_IN_LOOP', 'steps[0].for_each.steps[0].wait_for_event', 12, 11],
    ],
    [
      'a field of the output it does not have',
      `  - id: w\n    wait_for_event: { name: a, timeout: 1h }\n  - id: go\n    send_chat_message: { title: t, message: '{{steps.w.nope}}' }\n`,
      ['UNKNOWN_OUTPUT_FIELD', 'steps[1].send_chat_message.message', 10, 48],
    ],
  ])('reports %s at its position', (_name, steps, expected) => {
    expect(positionsOf(source(steps))).toEqual([expected]);
  });

  it('refuses more than 10 match fields', () => {
    const fields = Array.from({ length: 11 }, (_, i) => `f${i}: x`).join(', ');
    const res = compile(`  - id: w\n    wait_for_event: { name: a, timeout: 1h, match: { ${fields} } }\n`);
    expect(res.ok ? [] : res.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['TOO_LARGE', '11 match fields; the limit is 10.'],
    ]);
  });
});

describe('start_when.event', () => {
  const withTrigger = (startWhen: string) =>
    withSteps(`  - id: go\n    send_chat_message: { title: t, message: '{{inputs.email}}' }\n`, startWhen);

  it('compiles to an event trigger with typed run inputs', () => {
    const res = compileForTest(
      withTrigger(
        '  event:\n    name: user.signed_up\n    inputs:\n      email: { type: string, required: true }',
      ),
    );
    expect(res.ok ? res.plan.trigger : res.diagnostics).toEqual({
      type: 'event',
      name: 'user.signed_up',
      inputs: { email: { type: 'string', required: true } },
    });
  });

  it.each([
    [
      'a malformed name',
      '  event: { name: -signup, inputs: { email: { type: string } } }',
      ['INVALID_EVENT_NAME', 'start_when.event.name', 3, 18],
    ],
    [
      'two triggers',
      '  manual: {}\n  event: { name: a, inputs: { email: { type: string } } }',
      ['INVALID_TRIGGER', 'start_when', 3, 3],
    ],
    [
      'an event without a name',
      '  event: { inputs: { email: { type: string } } }',
      ['MISSING_FIELD', 'start_when.event', 3, 10],
    ],
  ])('reports %s at its position', (_name, startWhen, expected) => {
    expect(
      positionsOf(withSteps(`  - id: go\n    send_chat_message: { title: t, message: m }\n`, startWhen)),
    ).toEqual([expected]);
  });
});
