import { describe, expect, it } from 'vitest';
import type { SkillPlanStep } from '../runtime/plan.js';
import { diagnosticsOf, planOf, SEARCH_STEP, withSteps } from '../testing/compile.js';

/** A chat step (line 10 holds its message when it follows SEARCH_STEP). */
const chat = (message: string, id = 'notify') =>
  `  - id: ${id}\n    send_chat_message:\n      title: t\n      message: "${message}"\n`;

const brief = (source: string) => diagnosticsOf(source).map((d) => [d.code, d.path, d.line, d.column]);

describe('step references', () => {
  it('accepts declared output fields, indices, projections and length', () => {
    const message = [
      '{{steps.search.result_count}}',
      '{{steps.search.results.0.domain}}',
      '{{steps.search.results.length}}',
      '{{steps.search.results.[1].registration_tiers.0.price_after_taxes}}',
      '{{json steps.search.raw.results.0.warnings}}',
    ].join(' ');
    const next = `  - id: again\n    use_app_skill: hosting.search_domains\n    input:\n      requests:\n        - query: $nodes.search.output.results[0].domain\n          tlds: $nodes.search.output.results[].domain\n`;
    expect(planOf(withSteps(SEARCH_STEP + chat(message) + next)).steps).toHaveLength(3);
  });

  it('rejects a field the output does not declare, pointing at the reference', () => {
    //                 column: 16 + 3 = 19 is where "steps" starts inside the quoted message
    expect(diagnosticsOf(withSteps(SEARCH_STEP + chat('{{steps.search.nope}} found')))).toEqual([
      {
        code: 'UNKNOWN_OUTPUT_FIELD',
        message:
          "The step's output has no field at segment 1 after the step id; at that point it is an object with fields results, result_count, raw, error.",
        path: 'steps[1].send_chat_message.message',
        line: 13,
        column: 19,
      },
    ]);
  });

  it('points into multi-line block scalars and escaped JSON strings', () => {
    const block = `  - id: notify\n    send_chat_message:\n      title: t\n      message: |\n        Found:\n          {{steps.search.results.0.nope}}\n`;
    expect(brief(withSteps(SEARCH_STEP + block))).toEqual([
      ['UNKNOWN_OUTPUT_FIELD', 'steps[1].send_chat_message.message', 15, 13],
    ]);
    const json = JSON.stringify({
      title: 't',
      start_when: { manual: {} },
      steps: [{ id: 'a', send_chat_message: { title: 't', message: 'say "{{steps.a.x}}"' } }],
    });
    const column = json.indexOf('steps.a.x') + 1;
    expect(diagnosticsOf(json)).toMatchObject([{ code: 'FORWARD_REFERENCE', line: 1, column }]);
  });

  it('rejects fields below scalars and beyond projections', () => {
    const message = 'a {{steps.search.result_count.value}} b {{steps.search.results.0.domain.x}}';
    const next =
      '  - id: b\n    use_app_skill: hosting.search_domains\n    input:\n      requests:\n        - query: x\n          tlds: $nodes.search.output.results[].nope\n';
    expect(brief(withSteps(SEARCH_STEP + chat(message) + next))).toEqual([
      ['UNKNOWN_OUTPUT_FIELD', 'steps[1].send_chat_message.message', 13, 21],
      ['UNKNOWN_OUTPUT_FIELD', 'steps[1].send_chat_message.message', 13, 59],
      ['UNKNOWN_OUTPUT_FIELD', 'steps[2].input.requests[0].tlds', 19, 17],
    ]);
    expect(diagnosticsOf(withSteps(SEARCH_STEP + chat(message)))[0]?.message).toBe(
      "The step's output has no field at segment 2 after the step id; at that point it is a number.",
    );
  });

  it('rejects references to unknown, current and later steps', () => {
    const first = chat('{{steps.notify.x}} {{steps.later.result_count}} {{steps.ghost.x}}');
    const later = SEARCH_STEP.replace('id: search', 'id: later');
    expect(diagnosticsOf(withSteps(first + later)).map((d) => [d.code, d.column, d.message])).toEqual([
      ['FORWARD_REFERENCE', 19, "The reference names this step; only earlier steps' outputs exist."],
      ['FORWARD_REFERENCE', 38, "The reference names a later step; only earlier steps' outputs exist."],
      ['UNKNOWN_STEP', 67, 'The reference names a step that does not exist.'],
    ]);
  });

  it('rejects prototype access at compile time', () => {
    const message = '{{steps.search.constructor}} {{__proto__}} {{inputs.__proto__}}';
    const next =
      '  - id: b\n    use_app_skill: hosting.search_domains\n    input: { requests: [{ query: $nodes.search.output.__proto__ }] }\n';
    expect(brief(withSteps(SEARCH_STEP + chat(message) + next)).map(([code]) => code)).toEqual([
      'FORBIDDEN_PROPERTY',
      'FORBIDDEN_PROPERTY',
      'FORBIDDEN_PROPERTY',
      'FORBIDDEN_PROPERTY',
    ]);
  });

  it('gives chat steps no output fields', () => {
    const source = withSteps(chat('hi', 'first') + chat('{{steps.first.message_id}}'));
    expect(diagnosticsOf(source)).toMatchObject([{ code: 'UNKNOWN_OUTPUT_FIELD' }]);
  });
});

describe('run input references', () => {
  const manualWithInputs =
    '  manual:\n    inputs:\n      keyword: { type: string, required: true }\n      max: { type: integer, default: 5 }';

  it('keeps a whole-string reference typed and renders embedded references as text', () => {
    const step = [
      '  - id: second',
      '    use_app_skill: hosting.search_domains',
      '    input:',
      '      requests:',
      '        - query: "{{inputs.keyword}}-shop"',
      '          max_results: "{{inputs.max}}"',
      '          id: $nodes.search.output.results[0].domain',
    ].join('\n');
    const plan = planOf(withSteps(`${SEARCH_STEP}${step}\n`, manualWithInputs));
    const input = (plan.steps[1] as SkillPlanStep).input;
    expect(input).toEqual({
      kind: 'object',
      fields: [
        {
          key: 'requests',
          value: {
            kind: 'array',
            items: [
              {
                kind: 'object',
                fields: [
                  {
                    key: 'query',
                    value: {
                      kind: 'text',
                      template: [
                        {
                          kind: 'value',
                          expr: { kind: 'ref', ref: { root: 'inputs', name: 'keyword', path: [] } },
                        },
                        { kind: 'text', text: '-shop' },
                      ],
                    },
                  },
                  {
                    key: 'max_results',
                    value: { kind: 'ref', ref: { root: 'inputs', name: 'max', path: [] } },
                  },
                  {
                    key: 'id',
                    value: {
                      kind: 'ref',
                      ref: { root: 'steps', step: 'search', path: ['results', 0, 'domain'] },
                    },
                  },
                ],
              },
            ],
          },
        },
      ],
    });
  });

  it('rejects undeclared run inputs, and any run input in scheduled definitions', () => {
    expect(brief(withSteps(chat('{{inputs.nope}}'), manualWithInputs))).toEqual([
      ['UNKNOWN_INPUT', 'steps[0].send_chat_message.message', 11, 19],
    ]);
    const scheduled = withSteps(chat('{{inputs.keyword}}'), '  schedule: { every: 15m, timezone: UTC }');
    expect(diagnosticsOf(scheduled)[0]?.message).toBe(
      'The reference names a run input that is not declared (scheduled definitions have no run inputs).',
    );
  });

  it('rejects paths below scalar run inputs', () => {
    expect(brief(withSteps(chat('{{inputs.keyword.first}}'), manualWithInputs))).toEqual([
      ['UNKNOWN_INPUT', 'steps[0].send_chat_message.message', 11, 19],
    ]);
  });
});

describe('static validation of skill input', () => {
  it('maps schema issues to the offending line', () => {
    const step =
      '  - id: search\n    use_app_skill: hosting.search_domains\n    input:\n      requests:\n        - query: cedar\n          max_results: 50\n          colour: red\n';
    expect(diagnosticsOf(withSteps(step))).toEqual([
      {
        code: 'INVALID_SKILL_INPUT',
        message: 'max_results must be an integer from 1 to 20.',
        path: 'steps[0].input.requests[0].max_results',
        line: 10,
        column: 24,
      },
      {
        code: 'INVALID_SKILL_INPUT',
        message: 'Unknown field: it is not defined here.',
        path: 'steps[0].input.requests[0].colour',
        line: 11,
        column: 11,
      },
    ]);
  });

  it('skips what references decide but still checks the literal parts', () => {
    const next =
      '  - id: b\n    use_app_skill: hosting.search_domains\n    input:\n      requests:\n        - query: $nodes.search.output.results[0].domain\n          tlds: $nodes.search.output.results[].domain\n          max_results: 0\n';
    expect(brief(withSteps(SEARCH_STEP + next))).toEqual([
      ['INVALID_SKILL_INPUT', 'steps[1].input.requests[0].max_results', 16, 24],
    ]);
  });

  it('reports references whose value can never fit the field', () => {
    const next = [
      '  - id: b',
      '    use_app_skill: hosting.search_domains',
      '    input:',
      '      requests:',
      '        - query: $nodes.search.output.result_count',
      '          tlds: $nodes.search.output.results[].domain',
      '          max_results: "{{steps.search.result_count}} max"',
      '          country: "{{steps.search.results.0.domain}}"',
      '',
    ].join('\n');
    expect(diagnosticsOf(withSteps(SEARCH_STEP + next)).map((d) => [d.path, d.line, d.message])).toEqual([
      ['steps[1].input.requests[0].query', 14, 'The field expects string, but the reference yields number.'],
      [
        'steps[1].input.requests[0].max_results',
        16,
        'The field expects number, but this text yields string.',
      ],
    ]);
  });

  it('requires $nodes references to be the whole string', () => {
    const next =
      '  - id: b\n    use_app_skill: hosting.search_domains\n    input: { requests: [{ query: "best $nodes.search.output.results" }] }\n';
    // The literal text is also checked as a query (the real schema refuses `$` in a keyword).
    expect(brief(withSteps(SEARCH_STEP + next))).toEqual([
      ['INVALID_SKILL_INPUT', 'steps[1].input.requests[0].query', 12, 34],
      ['INVALID_REFERENCE', 'steps[1].input.requests[0].query', 12, 40],
    ]);
  });
});
