/**
 * `use_workflow` and a definition's `outputs` at compile time, against a lookup of the owner's
 * other definitions: a pinned version's inputs and outputs are checked, an unknown one or a
 * cycle back to the version being saved is a diagnostic at its line and column.
 */
import { describe, expect, it } from 'vitest';
import { compileDefinition } from './compile-definition.js';
import { createTestCatalog } from '../testing/test-catalog.js';
import { withSteps } from '../testing/compile.js';
import type { ChildDefinition, WorkflowLookup } from '../workflow-lookup.js';

const CHILD: ChildDefinition = {
  id: 'wf_child',
  version: 3,
  inputs: {
    name: { type: 'string', required: true },
    limit: { type: 'integer', required: false, default: 5 },
  },
  outputs: ['best', 'count'],
  reaches: [{ workflow: 'wf_grandchild', version: 1 }],
  skills: ['hosting.search_domains'],
  unpinned: false,
};

const lookup = (self?: WorkflowLookup['self']): WorkflowLookup => ({
  get: (id, version) =>
    id === 'wf_child' && (version === undefined || version === 3)
      ? CHILD
      : id === 'wf_loops' && version === 1
        ? { ...CHILD, id: 'wf_loops', version: 1, reaches: [{ workflow: 'wf_parent', version: 2 }] }
        : id === 'wf_open' && version === 1
          ? { ...CHILD, id: 'wf_open', version: 1, unpinned: true }
          : id === 'wf_pay' && version === 1
            ? {
                ...CHILD,
                id: 'wf_pay',
                version: 1,
                skills: ['billing.charge_card', 'hosting.search_domains'],
              }
            : undefined,
  ...(self && { self }),
});

function compile(steps: string, self?: WorkflowLookup['self'], extra = '', startWhen?: string) {
  return compileDefinition(`${withSteps(steps, startWhen)}${extra}`, {
    catalog: createTestCatalog(),
    workflows: lookup(self),
  });
}

const PINNED = `  - id: sub
    use_workflow:
      workflow: wf_child
      version: 3
      inputs: { name: cedar }
`;

describe('use_workflow', () => {
  it('compiles a pinned child; later steps read its declared outputs, typed by name', () => {
    const res = compile(
      `${PINNED}  - id: tell\n    send_chat_message: { title: t, message: '{{steps.sub.best}} of {{steps.sub.count}}' }\n`,
    );
    expect(res.ok && res.plan.steps[0]).toEqual({
      id: 'sub',
      kind: 'workflow',
      continueOnError: false,
      workflow: 'wf_child',
      version: 3,
      inputs: { kind: 'literal', value: { name: 'cedar' } },
    });
  });

  it('declares outputs: templates and whole-string references that read every step', () => {
    const res = compile(
      `${PINNED}`,
      undefined,
      `outputs:\n  best: $nodes.sub.output.best\n  summary: 'best {{steps.sub.best}}'\n`,
    );
    expect(res.ok && res.plan.outputs).toEqual([
      { name: 'best', value: { kind: 'ref', ref: { root: 'steps', step: 'sub', path: ['best'] } } },
      {
        name: 'summary',
        value: {
          kind: 'text',
          template: [
            { kind: 'text', text: 'best ' },
            { kind: 'value', expr: { kind: 'ref', ref: { root: 'steps', step: 'sub', path: ['best'] } } },
          ],
        },
      },
    ]);
  });

  it.each([
    [
      'an unknown definition',
      `  - id: sub\n    use_workflow: { workflow: wf_gone }\n`,
      undefined,
      { path: 'steps[0].use_workflow.workflow', line: 6, column: 31 },
      'UNKNOWN_WORKFLOW',
      'None of your workflow definitions has this id.',
    ],
    [
      'a version that does not exist',
      `  - id: sub\n    use_workflow: { workflow: wf_child, version: 9 }\n`,
      undefined,
      { path: 'steps[0].use_workflow.version', line: 6, column: 50 },
      'UNKNOWN_WORKFLOW',
      'None of your workflow definitions has this id at this version.',
    ],
    [
      'a version past what a stored version can be',
      `  - id: sub\n    use_workflow: { workflow: wf_child, version: 4294967296 }\n`,
      undefined,
      { path: 'steps[0].use_workflow.version', line: 6, column: 50 },
      'INVALID_VALUE',
      'Too big: expected number to be <=2147483647',
    ],
    [
      'an input the child does not declare',
      `  - id: sub\n    use_workflow: { workflow: wf_child, version: 3, inputs: { name: a, nmae: b } }\n`,
      undefined,
      { path: 'steps[0].use_workflow.inputs.nmae', line: 6, column: 72 },
      'INVALID_WORKFLOW_INPUT',
      'The workflow does not declare this input.',
    ],
    [
      'a literal of the wrong type',
      `  - id: sub\n    use_workflow: { workflow: wf_child, version: 3, inputs: { name: a, limit: many } }\n`,
      undefined,
      { path: 'steps[0].use_workflow.inputs.limit', line: 6, column: 79 },
      'INVALID_WORKFLOW_INPUT',
      'The workflow declares this input as integer.',
    ],
    [
      'a required input missing',
      `  - id: sub\n    use_workflow: { workflow: wf_child, version: 3, inputs: { limit: 2 } }\n`,
      undefined,
      { path: 'steps[0].use_workflow.inputs', line: 6, column: 61 },
      'INVALID_WORKFLOW_INPUT',
      '1 required input of the workflow is missing.',
    ],
    [
      'a pin of the version being saved',
      `  - id: sub\n    use_workflow: { workflow: wf_parent, version: 2 }\n`,
      { id: 'wf_parent', version: 2 },
      { path: 'steps[0].use_workflow.version', line: 6, column: 51 },
      'WORKFLOW_CYCLE',
      'A pinned use_workflow may not run the version being saved.',
    ],
    [
      'a pin that leads back to the version being saved',
      `  - id: sub\n    use_workflow: { workflow: wf_loops, version: 1, inputs: { name: a } }\n`,
      { id: 'wf_parent', version: 2 },
      { path: 'steps[0].use_workflow.version', line: 6, column: 50 },
      'WORKFLOW_CYCLE',
      'The pinned version leads back to the version being saved through its own use_workflow steps.',
    ],
    [
      'a timeout on the step',
      `${PINNED}    timeout: 1m\n`,
      undefined,
      { path: 'steps[0].timeout', line: 10, column: 5 },
      'UNKNOWN_FIELD',
      'timeout belongs to steps that call a skill, send a message or decide.',
    ],
  ])('%s', (_name, steps, self, at, code, message) => {
    const res = compile(steps, self);
    expect(res.ok ? [] : res.diagnostics).toEqual([{ code, message, ...at }]);
  });

  it('leaves an unpinned child to run start: its inputs are not checked and its output is untyped', () => {
    const res = compile(
      `  - id: sub\n    use_workflow: { workflow: wf_child, inputs: { anything: 1 } }\n  - id: tell\n    send_chat_message: { title: t, message: '{{steps.sub.whatever}}' }\n`,
    );
    expect(res.ok && res.plan.steps[0]).toEqual({
      id: 'sub',
      kind: 'workflow',
      continueOnError: false,
      workflow: 'wf_child',
      inputs: { kind: 'literal', value: { anything: 1 } },
    });
  });

  it('refuses a later step that reads an output the pinned child does not declare', () => {
    const res = compile(
      `${PINNED}  - id: tell\n    send_chat_message: { title: t, message: '{{steps.sub.nope}}' }\n`,
    );
    expect(res.ok ? [] : res.diagnostics.map((d) => [d.code, d.path, d.line])).toEqual([
      ['UNKNOWN_OUTPUT_FIELD', 'steps[1].send_chat_message.message', 11],
    ]);
  });

  it.each([
    [
      'an unpinned child',
      `  - id: sub\n    use_workflow: { workflow: wf_child }\n`,
      [
        'WORKFLOW_VERSION_REQUIRED',
        'steps[0].use_workflow.workflow',
        "A scheduled definition must pin each workflow's version: its runs are authorised when it is saved.",
      ],
    ],
    [
      'a pinned child that runs another workflow unpinned',
      `  - id: sub\n    use_workflow: { workflow: wf_open, version: 1, inputs: { name: a } }\n`,
      [
        'WORKFLOW_VERSION_REQUIRED',
        'steps[0].use_workflow.version',
        'The pinned version runs another workflow by its current version; a scheduled definition needs pinned versions all the way down.',
      ],
    ],
    [
      'a pinned child that calls a skill that may not run unattended',
      `  - id: sub\n    use_workflow: { workflow: wf_pay, version: 1, inputs: { name: a } }\n`,
      [
        'SKILL_NOT_UNATTENDED',
        'steps[0].use_workflow.version',
        'The pinned version calls a skill that may not run unattended, so a scheduled definition cannot use it.',
      ],
    ],
  ])('a scheduled definition refuses %s', (_name, steps, expected) => {
    const res = compile(steps, undefined, '', '  schedule: { every: 1h, timezone: UTC }');
    expect(res.ok ? [] : res.diagnostics.map((d) => [d.code, d.path, d.message])).toEqual([expected]);
  });

  it('a scheduled definition runs a child pinned all the way down', () => {
    const res = compile(PINNED, undefined, '', '  schedule: { every: 1h, timezone: UTC }');
    expect(res.ok).toBe(true);
  });

  it.each([
    ['a malformed output name', `outputs:\n  Best-One: x\n`, ['INVALID_VALUE', 'outputs.Best-One']],
    [
      'more than 20 outputs',
      `outputs:\n${Array.from({ length: 21 }, (_, i) => `  o${i}: x\n`).join('')}`,
      ['TOO_LARGE', 'outputs'],
    ],
  ])('refuses %s', (_name, extra, expected) => {
    const res = compile(PINNED, undefined, extra);
    expect(res.ok ? [] : res.diagnostics.map((d) => [d.code, d.path])).toEqual([expected]);
  });

  it('refuses an output that reads an unknown field of a pinned child', () => {
    const res = compile(`${PINNED}`, undefined, `outputs:\n  best: '{{steps.sub.nope}}'\n`);
    expect(res.ok ? [] : res.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['UNKNOWN_OUTPUT_FIELD', 'outputs.best'],
    ]);
  });
});
