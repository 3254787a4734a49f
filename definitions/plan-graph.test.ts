/** The picture of a plan: exact nodes and edges for a condition, a loop, a group and a handler. */
import { describe, expect, it } from 'vitest';
import { parseCondition } from './compiler/condition-parser.js';
import { planOf } from './testing/compile.js';
import { conditionText, planGraph } from './plan-graph.js';

const SOURCE = `title: Graph
start_when:
  manual:
    inputs:
      names: { type: array, required: true }
steps:
  - id: each_name
    for_each:
      items: '{{inputs.names}}'
      concurrency: 10
      steps:
        - id: check
          use_app_skill: hosting.search_domains
          input: { requests: [{ query: '{{item}}', tlds: [com] }] }
          on_error:
            - id: check_failed
              send_chat_message: { title: Ideas, message: 'Idea {{index}} failed' }
        - id: pause
          wait: { duration: 5m }
  - id: other_endings
    parallel:
      steps:
        - id: net
          use_app_skill: hosting.search_domains
          input: { requests: [{ query: '{{inputs.names.0}}', tlds: [net] }] }
        - id: org
          use_app_skill: hosting.search_domains
          input: { requests: [{ query: '{{inputs.names.0}}', tlds: [org] }] }
  - id: report
    if: $nodes.each_name.output.completed_count > 0 && $nodes.net.output.result_count != 0
    send_chat_message: { title: Ideas, message: 'done' }
  - id: give_up
    fail: { code: NOTHING_FREE, message: Nothing is free }
`;

describe('planGraph', () => {
  it('draws a loop, a group, a condition and a handler with exact nodes and edges', () => {
    expect(planGraph(planOf(SOURCE))).toEqual({
      nodes: [
        { id: 'each_name', kind: 'for_each', label: 'for each item, 10 at a time' },
        { id: 'check', kind: 'skill', label: 'hosting.search_domains', parent: 'each_name' },
        { id: 'check.on_error', kind: 'handler', label: 'when check fails', parent: 'each_name' },
        { id: 'check_failed', kind: 'chat', label: 'send a chat message', parent: 'check.on_error' },
        { id: 'pause', kind: 'wait', label: 'wait 5m', parent: 'each_name' },
        { id: 'other_endings', kind: 'parallel', label: 'side by side' },
        { id: 'net', kind: 'skill', label: 'hosting.search_domains', parent: 'other_endings' },
        { id: 'org', kind: 'skill', label: 'hosting.search_domains', parent: 'other_endings' },
        {
          id: 'report',
          kind: 'chat',
          label: 'send a chat message',
          condition: 'steps.each_name.completed_count > 0 && steps.net.result_count != 0',
        },
        { id: 'give_up', kind: 'fail', label: 'fail with NOTHING_FREE' },
      ],
      edges: [
        { from: 'check', to: 'check.on_error', label: 'on error' },
        { from: 'check', to: 'pause' },
        { from: 'each_name', to: 'other_endings' },
        {
          from: 'other_endings',
          to: 'report',
          label: 'if steps.each_name.completed_count > 0 && steps.net.result_count != 0',
        },
        { from: 'other_endings', to: 'give_up', label: 'else' },
        { from: 'report', to: 'give_up' },
      ],
    });
  });

  it('writes conditions in the if grammar, parenthesising an or inside an and and a compare under not', () => {
    const ref = (step: string) => ({
      kind: 'ref' as const,
      ref: { root: 'steps' as const, step, path: ['n'] },
    });
    const one = { kind: 'literal' as const, value: 1 };
    expect(
      conditionText({
        kind: 'and',
        left: { kind: 'or', left: ref('a'), right: ref('b') },
        right: { kind: 'not', operand: { kind: 'compare', op: '==', left: ref('c'), right: one } },
      }),
    ).toBe('(steps.a.n || steps.b.n) && !(steps.c.n == 1)');
  });

  it('writes a condition that parses back to the same condition', () => {
    for (const text of [
      "steps.a.n == 'x' || !(inputs.b > 2) && inputs.c",
      '(inputs.a || inputs.b) && !inputs.c',
      '!!(steps.s.results[].fqdn != null)',
      'inputs.n <= -1.5 || inputs.flag == false',
    ]) {
      const first = parseCondition(text);
      if (!first.ok) throw new Error(`${text}: ${first.message}`);
      const again = parseCondition(conditionText(first.node));
      expect([text, again.ok && again.node]).toEqual([text, first.node]);
    }
  });
});
