/**
 * `wait`, `fail` and `retry` at compile time: the plan each compiles to, and every diagnostic
 * at its line and column with its whole message (no author text in any of them).
 */
import { describe, expect, it } from 'vitest';
import { diagnosticsOf, planOf, SEARCH_STEP, withSteps } from '../testing/compile.js';

/** A definition whose second step (line 10) is `body`, indented under `- id: second`. */
const second = (body: string, startWhen?: string) =>
  withSteps(`${SEARCH_STEP}  - id: second\n${body}`, startWhen);

describe('wait', () => {
  it('compiles a duration and an until template; later steps read its typed output', () => {
    const plan = planOf(
      withSteps(
        `${SEARCH_STEP}  - id: pause
    wait: { duration: 1h30m }
  - id: until_then
    wait: { until: '{{inputs.when}}' }
  - id: tell
    send_chat_message: { title: t, message: '{{steps.pause.until}} {{steps.until_then.waited_ms}}' }
`,
        '  manual:\n    inputs:\n      when: { type: string, required: true }',
      ),
    );
    expect(plan.steps[1]).toEqual({
      id: 'pause',
      kind: 'wait',
      continueOnError: false,
      durationMs: 5_400_000,
    });
    expect(plan.steps[2]).toEqual({
      id: 'until_then',
      kind: 'wait',
      continueOnError: false,
      until: [{ kind: 'value', expr: { kind: 'ref', ref: { root: 'inputs', name: 'when', path: [] } } }],
    });
  });

  it('accepts a fixed instant with an offset, even one that has passed', () => {
    const plan = planOf(second(`    wait: { until: '2020-01-01T00:00:00+01:00' }\n`));
    expect(plan.steps[1]).toMatchObject({ until: [{ kind: 'text', text: '2020-01-01T00:00:00+01:00' }] });
  });

  it.each([
    [
      'neither field',
      `    wait: {}\n`,
      { path: 'steps[1].wait', line: 11, column: 11 },
      'INVALID_VALUE',
      'wait needs exactly one of duration and until.',
    ],
    [
      'both fields',
      `    wait: { duration: 1m, until: '2026-12-01T09:00:00Z' }\n`,
      { path: 'steps[1].wait', line: 11, column: 11 },
      'INVALID_VALUE',
      'wait needs exactly one of duration and until.',
    ],
    [
      'a malformed duration',
      `    wait: { duration: soon }\n`,
      { path: 'steps[1].wait.duration', line: 11, column: 23 },
      'INVALID_DURATION',
      'Invalid duration: use one such as 30s, 10m or 1d, at least 1s.',
    ],
    [
      'a duration over 366 days',
      `    wait: { duration: 367d }\n`,
      { path: 'steps[1].wait.duration', line: 11, column: 23 },
      'INVALID_DURATION',
      'A wait may last at most 366 days.',
    ],
    [
      'a fixed until that is not an instant',
      `    wait: { until: next friday }\n`,
      { path: 'steps[1].wait.until', line: 11, column: 20 },
      'INVALID_VALUE',
      'until must be an ISO-8601 instant with an offset, such as 2026-12-01T09:00:00Z, or a template that renders one.',
    ],
    [
      'a fixed until without an offset',
      `    wait: { until: '2026-12-01T09:00:00' }\n`,
      { path: 'steps[1].wait.until', line: 11, column: 20 },
      'INVALID_VALUE',
      'until must be an ISO-8601 instant with an offset, such as 2026-12-01T09:00:00Z, or a template that renders one.',
    ],
    [
      'an until that names an unknown step',
      `    wait: { until: '{{steps.nope.at}}' }\n`,
      { path: 'steps[1].wait.until', line: 11, column: 23 },
      'UNKNOWN_STEP',
      'The reference names a step that does not exist.',
    ],
    [
      'a timeout',
      `    wait: { duration: 1m }\n    timeout: 30s\n`,
      { path: 'steps[1].timeout', line: 12, column: 5 },
      'UNKNOWN_FIELD',
      'timeout belongs to steps that call a skill, send a message or decide.',
    ],
    [
      'a retry',
      `    wait: { duration: 1m }\n    retry: { max_attempts: 1 }\n`,
      { path: 'steps[1].retry', line: 12, column: 5 },
      'UNKNOWN_FIELD',
      'retry belongs to steps that call a skill, send a message or decide.',
    ],
    [
      'an unknown field',
      `    wait: { duration: 1m, jitter: 5s }\n`,
      { path: 'steps[1].wait.jitter', line: 11, column: 27 },
      'UNKNOWN_FIELD',
      'Unknown field: it is not defined here.',
    ],
  ])('%s', (_name, body, at, code, message) => {
    expect(diagnosticsOf(second(body))).toEqual([{ code, message, ...at }]);
  });
});

describe('fail', () => {
  it('compiles the code and the message template; `if` guards it', () => {
    const plan = planOf(
      second(`    if: $nodes.search.output.result_count == 0
    fail: { code: NO_NAMES_FREE, message: 'None of {{steps.search.result_count}} names is free.' }
`),
    );
    expect(plan.steps[1]).toEqual({
      id: 'second',
      kind: 'fail',
      continueOnError: false,
      code: 'NO_NAMES_FREE',
      message: [
        { kind: 'text', text: 'None of ' },
        {
          kind: 'value',
          expr: { kind: 'ref', ref: { root: 'steps', step: 'search', path: ['result_count'] } },
        },
        { kind: 'text', text: ' names is free.' },
      ],
      if: {
        kind: 'compare',
        op: '==',
        left: { kind: 'ref', ref: { root: 'steps', step: 'search', path: ['result_count'] } },
        right: { kind: 'literal', value: 0 },
      },
    });
  });

  it.each([
    [
      'a code that is not upper snake case',
      `    fail: { code: no-names, message: m }\n`,
      { path: 'steps[1].fail.code', line: 11, column: 19 },
      'INVALID_VALUE',
      'A fail code must match ^[A-Z][A-Z0-9_]{2,63}$.',
    ],
    [
      'a code too short',
      `    fail: { code: NO, message: m }\n`,
      { path: 'steps[1].fail.code', line: 11, column: 19 },
      'INVALID_VALUE',
      'A fail code must match ^[A-Z][A-Z0-9_]{2,63}$.',
    ],
    [
      "one of the platform's codes",
      `    fail: { code: RATE_LIMITED, message: m }\n`,
      { path: 'steps[1].fail.code', line: 11, column: 19 },
      'INVALID_VALUE',
      "The code is one of the platform's error codes; choose one of your own.",
    ],
    [
      'continue_on_error',
      `    fail: { code: STOP_HERE, message: m }\n    continue_on_error: true\n`,
      { path: 'steps[1].continue_on_error', line: 12, column: 24 },
      'INVALID_VALUE',
      'A fail step always fails; continue_on_error does not apply to it.',
    ],
    [
      'a message template with a forward reference',
      `    fail: { code: STOP_HERE, message: '{{steps.second.x}}' }\n`,
      { path: 'steps[1].fail.message', line: 11, column: 42 },
      'FORWARD_REFERENCE',
      "The reference names this step; only earlier steps' outputs exist.",
    ],
    [
      'a missing message',
      `    fail: { code: STOP_HERE }\n`,
      { path: 'steps[1].fail', line: 11, column: 11 },
      'MISSING_FIELD',
      'Missing required field "message".',
    ],
  ])('%s', (_name, body, at, code, message) => {
    expect(diagnosticsOf(second(body))).toEqual([{ code, message, ...at }]);
  });

  it('is one action among the others', () => {
    expect(
      diagnosticsOf(second(`    fail: { code: STOP_HERE, message: m }\n    wait: { duration: 1m }\n`)),
    ).toEqual([
      {
        code: 'MULTIPLE_ACTIONS',
        message:
          'A step needs exactly one of use_app_skill, send_chat_message, decide, wait, fail, for_each, parallel, use_workflow, wait_for_approval and wait_for_event.',
        path: 'steps[1]',
        line: 10,
        column: 5,
      },
    ]);
  });
});

describe('retry', () => {
  it('narrows a skill step, a chat step and a decide step within their profiles', () => {
    const plan = planOf(
      withSteps(`  - id: search
    use_app_skill: hosting.search_domains
    input: { requests: [{ query: cedar }] }
    retry: { max_attempts: 1 }
  - id: tell
    send_chat_message: { title: t, message: m }
    retry: { max_attempts: 10, initial_interval: 1m, backoff: 1.5 }
  - id: ask
    decide: { type: score, question: q, fallback: 2 }
    retry: { initial_interval: 10s }
`),
    );
    expect(plan.steps.map((s) => s.retry)).toEqual([
      { maximumAttempts: 1 },
      { maximumAttempts: 10, initialIntervalMs: 60_000, backoffCoefficient: 1.5 },
      { initialIntervalMs: 10_000 },
    ]);
  });

  it.each([
    [
      'more attempts than the skill policy allows',
      `    retry: { max_attempts: 4 }\n`,
      { path: 'steps[0].retry.max_attempts', line: 8, column: 28 },
      'RETRY_OUT_OF_POLICY',
      "The step's policy allows at most 3 attempts.",
    ],
    [
      'a longer interval than the skill policy waits',
      `    retry: { initial_interval: 31s }\n`,
      { path: 'steps[0].retry.initial_interval', line: 8, column: 32 },
      'RETRY_OUT_OF_POLICY',
      "The step's policy waits at most 30s between attempts.",
    ],
    [
      'a malformed interval',
      `    retry: { initial_interval: 500ms }\n`,
      { path: 'steps[0].retry.initial_interval', line: 8, column: 32 },
      'INVALID_DURATION',
      'Invalid duration: use one such as 1s or 30s, at least 1s.',
    ],
    [
      'zero attempts',
      `    retry: { max_attempts: 0 }\n`,
      { path: 'steps[0].retry.max_attempts', line: 8, column: 28 },
      'INVALID_VALUE',
      'Too small: expected number to be >=1',
    ],
    [
      'a backoff above 4',
      `    retry: { backoff: 5 }\n`,
      { path: 'steps[0].retry.backoff', line: 8, column: 23 },
      'INVALID_VALUE',
      'Too big: expected number to be <=4',
    ],
  ])('%s', (_name, retry, at, code, message) => {
    const source = withSteps(`  - id: search
    use_app_skill: hosting.search_domains
    input: { requests: [{ query: cedar }] }
${retry}`);
    expect(diagnosticsOf(source)).toEqual([{ code, message, ...at }]);
  });

  it("checks a decide step against the decision profile's bounds", () => {
    expect(
      diagnosticsOf(
        second(`    decide: { type: score, question: q, fallback: 2 }\n    retry: { max_attempts: 3 }\n`),
      ),
    ).toEqual([
      {
        code: 'RETRY_OUT_OF_POLICY',
        message: "The step's policy allows at most 2 attempts.",
        path: 'steps[1].retry.max_attempts',
        line: 12,
        column: 28,
      },
    ]);
  });
});
