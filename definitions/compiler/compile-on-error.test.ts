/**
 * `on_error` at compile time: the plan, `error.code` / `error.step` only inside a handler, the
 * handler's steps private to it, and every diagnostic at its line and column with its message.
 */
import { describe, expect, it } from 'vitest';
import { diagnosticsOf, planOf, SEARCH_STEP, withSteps } from '../testing/compile.js';

/** The search step (lines 5-9) with `extra` appended to it (line 10 on), then `after`. */
const handled = (extra: string, after = '') => withSteps(`${SEARCH_STEP}${extra}${after}`);

const HANDLER = `    on_error:
      - id: tell
        send_chat_message: { title: Failed, message: '{{error.code}} at {{error.step}}' }
`;

describe('on_error', () => {
  it('compiles the handler onto its step; error.code and error.step are references', () => {
    const plan = planOf(handled(HANDLER));
    expect(plan.steps[0]).toMatchObject({
      id: 'search',
      kind: 'skill',
      onError: [
        {
          id: 'tell',
          kind: 'chat',
          message: [
            { kind: 'value', expr: { kind: 'ref', ref: { root: 'error', field: 'code' } } },
            { kind: 'text', text: ' at ' },
            { kind: 'value', expr: { kind: 'ref', ref: { root: 'error', field: 'step' } } },
          ],
        },
      ],
    });
  });

  it('takes $error.code in conditions and whole strings, and handlers on groups and inside loops', () => {
    const plan = planOf(
      withSteps(`  - id: each
    for_each:
      items: [a, b]
      steps:
        - id: inner
          wait: { duration: 1s }
          on_error:
            - id: stop
              if: $error.code == 'NOT_FOUND'
              fail: { code: ELEMENT_GONE, message: 'Element {{index}} failed at {{error.step}}' }
    on_error:
      - { id: pause, wait: { duration: 1s } }
`),
    );
    expect(plan.steps[0]).toMatchObject({
      kind: 'for_each',
      steps: [{ id: 'inner', onError: [{ id: 'stop', if: { kind: 'compare', op: '==' } }] }],
      onError: [{ id: 'pause', kind: 'wait' }],
    });
  });

  it.each([
    [
      'error outside a handler',
      '',
      `  - id: tell\n    send_chat_message: { title: t, message: '{{error.code}}' }\n`,
      { path: 'steps[1].send_chat_message.message', line: 11, column: 48 },
      'INVALID_REFERENCE',
      'error is only available inside an on_error handler.',
    ],
    [
      '$error outside a handler',
      '',
      `  - id: stop\n    if: $error.code == 'X'\n    fail: { code: STOPPED, message: m }\n`,
      { path: 'steps[1].if', line: 11, column: 9 },
      'INVALID_REFERENCE',
      'error is only available inside an on_error handler.',
    ],
    [
      'a field error does not have',
      `    on_error:\n      - { id: tell, send_chat_message: { title: t, message: '{{error.message}}' } }\n`,
      '',
      { path: 'steps[0].on_error[0].send_chat_message.message', line: 11, column: 64 },
      'INVALID_REFERENCE',
      'error has only the fields code and step.',
    ],
    [
      'a handler step read after the handled step',
      HANDLER,
      `  - id: later\n    send_chat_message: { title: t, message: '{{steps.tell.message_id}}' }\n`,
      { path: 'steps[1].send_chat_message.message', line: 14, column: 48 },
      'STEP_NOT_IN_SCOPE',
      'The reference names a step of an on_error handler; its output exists only inside the handler.',
    ],
    [
      'the handled step read from its handler',
      `    on_error:\n      - { id: tell, send_chat_message: { title: t, message: '{{steps.search.result_count}}' } }\n`,
      '',
      { path: 'steps[0].on_error[0].send_chat_message.message', line: 11, column: 64 },
      'FORWARD_REFERENCE',
      'The reference names the step this on_error handler handles; it failed, so it has no output.',
    ],
    [
      'on_error with continue_on_error',
      `    continue_on_error: true\n${HANDLER}`,
      '',
      { path: 'steps[0].continue_on_error', line: 10, column: 24 },
      'INVALID_VALUE',
      'A step takes on_error or continue_on_error, not both.',
    ],
    [
      'an empty handler',
      `    on_error: []\n`,
      '',
      { path: 'steps[0].on_error', line: 10, column: 15 },
      'INVALID_VALUE',
      'Too small: expected array to have >=1 items',
    ],
  ])('%s', (_name, extra, after, at, code, message) => {
    expect(diagnosticsOf(handled(extra, after))).toEqual([{ code, message, ...at }]);
  });

  it('refuses on_error on a fail step', () => {
    const source = withSteps(`  - id: stop
    fail: { code: STOPPED, message: m }
    on_error:
      - { id: pause, wait: { duration: 1s } }
`);
    expect(diagnosticsOf(source)).toEqual([
      {
        code: 'INVALID_VALUE',
        message: 'A fail step always fails; on_error does not apply to it.',
        path: 'steps[0].on_error',
        line: 7,
        column: 5,
      },
    ]);
  });
});
