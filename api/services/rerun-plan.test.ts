/**
 * The re-run decision on compiled plans: where it starts by default, what it takes over, what a
 * changed input or step input makes run again (in order, through the steps that read it), parallel
 * groups whole or not at all, and a loop's completed elements.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { planOf } from '../../definitions/testing/compile.js';
import type { StepProgress } from '../../workflows/progress.js';
import type { RunDefinitionInput } from '../../workflows/run-definition.js';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import { UNDECLARED_INPUT } from '../../definitions/runtime/run-inputs.js';
import { planRerun, type EarlierRun, type SkillInputOf } from './rerun-plan.js';

const SOURCE = `title: Decision
start_when:
  manual:
    inputs:
      word: { type: string, default: cedar }
      other: { type: string, default: maple }
steps:
  - id: first
    use_app_skill: hosting.search_domains
    input: { requests: [{ query: '{{inputs.word}}' }] }
  - id: second
    use_app_skill: hosting.search_domains
    input: { requests: [{ query: '{{inputs.other}}' }] }
  - id: reads_first
    use_app_skill: hosting.search_domains
    input: { requests: [{ query: 'n{{steps.first.result_count}}' }] }
  - id: pair
    parallel:
      steps:
        - id: left
          use_app_skill: hosting.search_domains
          input: { requests: [{ query: left }] }
        - id: right
          use_app_skill: hosting.search_domains
          input: { requests: [{ query: right }] }
  - id: tolerated
    continue_on_error: true
    use_app_skill: hosting.search_domains
    input: { requests: [{ query: tolerated }] }
  - id: each
    for_each:
      items: [a, b, c]
      steps:
        - id: check
          use_app_skill: hosting.search_domains
          input: { requests: [{ query: '{{item}}' }] }
  - id: last
    use_app_skill: hosting.search_domains
    input: { requests: [{ query: last }] }
`;

const plan = planOf(SOURCE);
/** A skill input schema of the requests envelope (the registry's is checked over HTTP in reruns.test.ts). */
const SEARCH_INPUT = z
  .object({
    requests: z.array(z.object({ query: z.string() }).strict()).min(1, 'At least one request is required.'),
  })
  .strict();
const skillInput: SkillInputOf = (ref) => (ref === 'hosting.search_domains' ? SEARCH_INPUT : undefined);

const step = (
  id: string,
  status: StepProgress['status'],
  extra: Partial<StepProgress> = {},
): StepProgress => ({
  id,
  status,
  started_at: status === 'pending' ? null : `2026-11-26T10:00:0${id.length % 10}.000Z`,
  finished_at: status === 'pending' ? null : `2026-11-26T10:00:1${id.length % 10}.000Z`,
  output_summary: null,
  error: null,
  ...extra,
});

function earlier(statuses: Record<string, StepProgress['status']>, elements = {}): EarlierRun {
  const steps = Object.entries(statuses).map(([id, status]) =>
    step(id, status, id === 'left' || id === 'right' ? { group: 'pair' } : {}),
  );
  const outputs = Object.fromEntries(
    steps.filter((s) => s.status === 'completed').map((s) => [s.id, { result_count: s.id.length }]),
  );
  const input: RunDefinitionInput = {
    plan,
    definitionId: 'wf_x',
    definitionVersion: 3,
    ownerId: 'owner_a',
    trigger: 'schedule',
    inputs: { word: 'cedar', other: 'maple' },
    policies: {},
  };
  return { taskId: 'task_earlier', input, steps, outputs, elements };
}

const ALL_DONE = {
  first: 'completed',
  second: 'completed',
  reads_first: 'completed',
  pair: 'completed',
  left: 'completed',
  right: 'completed',
  tolerated: 'completed',
  each: 'completed',
  last: 'completed',
} as const;

describe('planRerun', () => {
  it('starts at the first step that failed; a tolerated failure and its later steps do not count', () => {
    const decided = planRerun(
      earlier({ ...ALL_DONE, tolerated: 'failed', each: 'failed', last: 'pending' }),
      {},
      skillInput,
    );
    expect(decided.fromStep).toBe('each');
    expect(decided.reusedSteps).toEqual(['first', 'second', 'reads_first', 'pair']);
    // The group's inner steps are taken over with it; the tolerated failure runs again.
    expect(Object.keys(decided.input.reuse!.steps)).toEqual([
      'first',
      'second',
      'reads_first',
      'pair',
      'left',
      'right',
    ]);
    expect(decided.input.reuse!.steps.first).toEqual({
      output: { result_count: 5 },
      started_at: '2026-11-26T10:00:05.000Z',
      finished_at: '2026-11-26T10:00:15.000Z',
    });
    // The snapshot runs as a manual run of the same version, whatever started the earlier one.
    expect(decided.input).toMatchObject({
      definitionVersion: 3,
      trigger: 'manual',
      inputs: { word: 'cedar' },
    });
  });

  it('runs again a step whose run input changed, and every later step that reads it', () => {
    const decided = planRerun(
      earlier({ ...ALL_DONE, last: 'failed' }),
      { inputs: { word: 'oak' } },
      skillInput,
    );
    expect(decided.fromStep).toBe('last');
    expect(decided.reusedSteps).toEqual(['second', 'pair', 'tolerated', 'each']);
    expect(decided.input.inputs).toEqual({ word: 'oak', other: 'maple' });
  });

  it('runs again an edited step and what reads it; the edit replaces the whole input', () => {
    const decided = planRerun(
      earlier({ ...ALL_DONE, last: 'failed' }),
      { step_inputs: { first: { requests: [{ query: 'birch' }] } } },
      skillInput,
    );
    expect(decided.reusedSteps).toEqual(['second', 'pair', 'tolerated', 'each']);
    expect(decided.input.plan.steps[0]).toMatchObject({
      id: 'first',
      input: { kind: 'literal', value: { requests: [{ query: 'birch' }] } },
    });
    // The earlier run's plan is untouched.
    expect(plan.steps[0]).toMatchObject({ input: { kind: 'object' } });
  });

  it('runs a parallel group whole when one of its steps did not complete', () => {
    const decided = planRerun(
      earlier({
        ...ALL_DONE,
        right: 'failed',
        pair: 'failed',
        tolerated: 'pending',
        each: 'pending',
        last: 'pending',
      }),
      {},
      skillInput,
    );
    expect(decided.fromStep).toBe('pair');
    expect(Object.keys(decided.input.reuse!.steps)).toEqual(['first', 'second', 'reads_first']);
  });

  it("takes over a from_step loop's completed elements, only when its inputs are unchanged", () => {
    const elements = {
      each: [
        { index: 0, status: 'completed', outputs: { check: { result_count: 1 } } },
        {
          index: 1,
          status: 'failed',
          outputs: {},
          error: { code: 'UPSTREAM_ERROR', message: 'x', step: 'check' },
        },
        { index: 2, status: 'completed', outputs: {} },
      ],
    };
    const statuses = { ...ALL_DONE, each: 'failed', last: 'pending' } as const;
    const decided = planRerun(earlier(statuses, elements), {}, skillInput);
    // An element whose outputs were cut down runs again.
    expect(decided.reusedElements).toBe(1);
    expect(decided.input.reuse!.elements).toEqual({ each: { '0': { check: { result_count: 1 } } } });
    const edited = planRerun(
      earlier(statuses, elements),
      { step_inputs: { first: { requests: [{ query: 'x' }] } } },
      skillInput,
    );
    expect(edited.reusedElements).toBe(1);
    const from = planRerun(earlier(statuses, elements), { from_step: 'second' }, skillInput);
    expect([from.reusedSteps, from.reusedElements]).toEqual([['first'], 0]);
  });

  it('refuses an unknown from_step, bad inputs and bad step inputs with every issue', () => {
    const refusal = (request: Parameters<typeof planRerun>[1]) => {
      try {
        planRerun(earlier(ALL_DONE), request, skillInput);
      } catch (err) {
        if (err instanceof SkillflowError) return [err.code, err.details];
      }
      return undefined;
    };
    expect(refusal({ from_step: 'check' })).toEqual([
      'INVALID_RERUN',
      {
        issues: [{ path: 'from_step', message: 'Names no top-level step of the run.' }],
        steps: ['first', 'second', 'reads_first', 'pair', 'tolerated', 'each', 'last'],
      },
    ]);
    expect(refusal({ inputs: { word: 3, nope: 1 } })).toEqual([
      'INVALID_RERUN',
      {
        issues: [
          { path: 'inputs', input: 'nope', message: UNDECLARED_INPUT },
          { path: 'inputs.word', message: 'must be of type string' },
        ],
      },
    ]);
    expect(refusal({ step_inputs: { check: {}, left: { requests: 'x' }, 'Bad Id': {} } })).toEqual([
      'INVALID_RERUN',
      {
        issues: [
          {
            path: 'step_inputs.check',
            message: 'Names no skill step of the run (top-level or in a parallel group; not inside a loop).',
          },
          { path: 'step_inputs.left.requests', message: expect.any(String) },
          {
            path: 'step_inputs',
            message: 'Names no skill step of the run (top-level or in a parallel group; not inside a loop).',
          },
        ],
      },
    ]);
  });
});
