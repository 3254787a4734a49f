/**
 * `for_each` and `parallel` at compile time: the plan, what each step can see (positional
 * scope), `item`/`index`, and every diagnostic at its line and column with its whole message.
 */
import { describe, expect, it } from 'vitest';
import { diagnosticsOf, planOf, SEARCH_STEP, withSteps } from '../testing/compile.js';

/** The search step (lines 5-9), then `body` as the second step (line 10 on). */
const second = (body: string, startWhen?: string) => withSteps(`${SEARCH_STEP}${body}`, startWhen);

const LOOP = `  - id: each_name
    for_each:
      items: $nodes.search.output.results[].domain
      concurrency: 10
      steps:
        - id: check
          use_app_skill: hosting.search_domains
          input: { requests: [{ query: '{{item}}' }] }
`;

describe('for_each', () => {
  it('compiles items, concurrency and inner steps; item is typed by the list', () => {
    const plan = planOf(second(LOOP));
    expect(plan.steps[1]).toMatchObject({
      id: 'each_name',
      kind: 'for_each',
      concurrency: 10,
      items: { kind: 'ref', ref: { root: 'steps', step: 'search', path: ['results', '[]', 'domain'] } },
      steps: [
        {
          id: 'check',
          kind: 'skill',
          input: {
            kind: 'object',
            fields: [
              {
                key: 'requests',
                value: {
                  kind: 'array',
                  items: [
                    {
                      kind: 'object',
                      fields: [{ key: 'query', value: { kind: 'ref', ref: { root: 'loop', path: [] } } }],
                    },
                  ],
                },
              },
            ],
          },
        },
      ],
    });
  });

  it("types the loop's output: later steps read each element's inner outputs", () => {
    const plan = planOf(
      second(`${LOOP}  - id: tell
    if: $nodes.each_name.output.completed_count > 0
    send_chat_message:
      title: t
      message: '{{#each steps.each_name.results}}{{this.index}} {{this.outputs.check.result_count}}{{/each}}'
`),
    );
    expect(plan.steps.map((s) => s.kind)).toEqual(['skill', 'for_each', 'chat']);
  });

  it.each([
    [
      'an inner step read from outside the loop',
      `${LOOP}  - id: tell\n    send_chat_message: { title: t, message: '{{steps.check.result_count}}' }\n`,
      { path: 'steps[2].send_chat_message.message', line: 19, column: 48 },
      'STEP_NOT_IN_SCOPE',
      "The reference names a step inside a for_each; outside the loop, read it through the loop's output.",
    ],
    [
      'the loop read from inside it',
      `${LOOP}        - id: tell\n          send_chat_message: { title: t, message: '{{steps.each_name.completed_count}}' }\n`,
      { path: 'steps[1].for_each.steps[1].send_chat_message.message', line: 19, column: 54 },
      'FORWARD_REFERENCE',
      'The reference names a for_each or parallel step around this one; its output exists only after it.',
    ],
    [
      'item outside a loop',
      `  - id: tell\n    send_chat_message: { title: t, message: '{{item}}' }\n`,
      { path: 'steps[1].send_chat_message.message', line: 11, column: 48 },
      'INVALID_REFERENCE',
      'item is only available inside a for_each.',
    ],
    [
      '$index outside a loop',
      `  - id: again\n    use_app_skill: hosting.search_domains\n    input: { requests: [{ query: cedar, max_results: $index }] }\n`,
      { path: 'steps[1].input.requests[0].max_results', line: 12, column: 54 },
      'INVALID_REFERENCE',
      'index is only available inside a for_each.',
    ],
    [
      'items that are not a list',
      `  - id: each\n    for_each:\n      items: $nodes.search.output.result_count\n      steps:\n        - { id: w, wait: { duration: 1s } }\n`,
      { path: 'steps[1].for_each.items', line: 12, column: 14 },
      'NOT_A_LIST',
      'items must be a list, but this reference does not yield one.',
    ],
    [
      'items that are neither a list nor a reference',
      `  - id: each\n    for_each:\n      items: 5\n      steps:\n        - { id: w, wait: { duration: 1s } }\n`,
      { path: 'steps[1].for_each.items', line: 12, column: 14 },
      'INVALID_VALUE',
      'items must be a list, or a whole-string reference to one.',
    ],
    [
      'a concurrency above 50',
      `  - id: each\n    for_each:\n      items: [a]\n      concurrency: 51\n      steps:\n        - { id: w, wait: { duration: 1s } }\n`,
      { path: 'steps[1].for_each.concurrency', line: 13, column: 20 },
      'INVALID_VALUE',
      'Too big: expected number to be <=50',
    ],
    [
      'a timeout on the loop',
      `  - id: each\n    for_each:\n      items: [a]\n      steps:\n        - { id: w, wait: { duration: 1s } }\n    timeout: 1m\n`,
      { path: 'steps[1].timeout', line: 15, column: 5 },
      'UNKNOWN_FIELD',
      'timeout belongs to steps that call a skill, send a message or decide.',
    ],
    [
      'an id used again inside the loop',
      `  - id: each\n    for_each:\n      items: [a]\n      steps:\n        - { id: search, wait: { duration: 1s } }\n`,
      { path: 'steps[1].for_each.steps[0].id', line: 14, column: 17 },
      'DUPLICATE_STEP_ID',
      'The step id is already used by steps[0]; step ids must be unique, inner steps included.',
    ],
  ])('%s', (_name, body, at, code, message) => {
    expect(diagnosticsOf(second(body))).toEqual([{ code, message, ...at }]);
  });

  it('refuses more than 10,000 literal items, and nesting past 3 levels', () => {
    // JSON: a YAML list this long passes the YAML token limit first.
    const source = JSON.stringify({
      title: 't',
      start_when: { manual: {} },
      steps: [
        {
          id: 'each',
          for_each: { items: Array(10_001).fill(1), steps: [{ id: 'w', wait: { duration: '1s' } }] },
        },
      ],
    });
    expect(diagnosticsOf(source, 'json')).toEqual([
      {
        code: 'TOO_LARGE',
        message: 'A for_each takes at most 10000 items.',
        path: 'steps[0].for_each.items',
        line: 1,
        column: source.indexOf('[1,') + 1,
      },
    ]);
    const nest = (depth: number): string =>
      depth === 0
        ? '{ id: leaf, wait: { duration: 1s } }'
        : `{ id: g${depth}, parallel: { steps: [${nest(depth - 1)}, { id: w${depth}, wait: { duration: 1s } }] } }`;
    const deep = diagnosticsOf(second(`  - ${nest(4)}\n`));
    expect(deep.map((d) => [d.code, d.message, d.path])).toEqual([
      [
        'TOO_LARGE',
        'for_each, parallel and on_error steps may be nested at most 3 deep.',
        'steps[1].parallel.steps[0].parallel.steps[0].parallel.steps[0].parallel',
      ],
    ]);
  });
});

describe('parallel', () => {
  const GROUP = `  - id: both
    parallel:
      steps:
        - id: left
          wait: { duration: 1s }
        - id: right
          send_chat_message: { title: t, message: '{{steps.search.result_count}}' }
`;

  it('compiles its steps; after the group, each inner output is read under its own id', () => {
    const plan = planOf(
      second(
        `${GROUP}  - id: after\n    send_chat_message: { title: t, message: '{{steps.left.waited_ms}} {{steps.both.completed_count}}' }\n`,
      ),
    );
    expect(plan.steps[1]).toMatchObject({
      id: 'both',
      kind: 'parallel',
      steps: [{ id: 'left' }, { id: 'right' }],
    });
  });

  it('refuses a sibling reference inside the group, and a group of one step', () => {
    expect(
      diagnosticsOf(second(GROUP.replace("'{{steps.search.result_count}}'", "'{{steps.left.waited_ms}}'"))),
    ).toEqual([
      {
        code: 'FORWARD_REFERENCE',
        message:
          'The reference names a step of the same parallel group; its output exists only after the group.',
        path: 'steps[1].parallel.steps[1].send_chat_message.message',
        line: 16,
        column: 54,
      },
    ]);
    expect(
      diagnosticsOf(
        second(`  - id: one\n    parallel:\n      steps:\n        - { id: w, wait: { duration: 1s } }\n`),
      ),
    ).toEqual([
      {
        code: 'INVALID_VALUE',
        message: 'Too small: expected array to have >=2 items',
        path: 'steps[1].parallel.steps',
        line: 13,
        column: 9,
      },
    ]);
  });
});
