import { describe, expect, it } from 'vitest';
import { diagnosticsOf, planOf, SEARCH_STEP, withSteps } from '../testing/compile.js';

const decide = (body: string, extra = '') =>
  withSteps(`${SEARCH_STEP}  - id: worth_it\n    decide:\n${body}${extra}`);

describe('decide step', () => {
  it('compiles the issue example with an `if` on its typed answer', () => {
    const plan = planOf(
      decide(
        `      type: noul
      question: "Is any of these names short and brandable?"
      context: "{{json steps.search.results}}"
      fallback: false
`,
        `  - id: notify
    if: $nodes.worth_it.output.answer == true
    send_chat_message: { title: Names, message: "{{steps.worth_it.confidence}} {{steps.worth_it.fallback_used}}" }
`,
      ),
    );
    expect(plan.steps[1]).toEqual({
      id: 'worth_it',
      kind: 'decide',
      continueOnError: false,
      decision: { type: 'noul', fallback: false },
      question: [{ kind: 'text', text: 'Is any of these names short and brandable?' }],
      context: [
        {
          kind: 'value',
          expr: {
            kind: 'helper',
            name: 'json',
            args: [{ kind: 'ref', ref: { root: 'steps', step: 'search', path: ['results'] } }],
          },
        },
      ],
    });
    expect(plan.steps[2]?.if).toBeDefined();
  });

  it('compiles choice and score with min_confidence', () => {
    const choice = planOf(
      decide(`      type: choice
      question: Which tone?
      options: [formal, playful]
      fallback: formal
      min_confidence: 0.6
`),
    );
    expect(choice.steps[1]).toMatchObject({
      decision: { type: 'choice', options: ['formal', 'playful'], fallback: 'formal', minConfidence: 0.6 },
    });
    const score = planOf(decide(`      type: score\n      question: How good?\n      fallback: 2\n`));
    expect(score.steps[1]).toMatchObject({ decision: { type: 'score', fallback: 2 } });
  });

  it.each([
    [
      'choice with one option',
      `      type: choice\n      question: q\n      options: [a]\n      fallback: a\n`,
      'steps[1].decide.options',
      14,
      16,
      'A choice needs at least 2 distinct options.',
    ],
    [
      'choice without options',
      `      type: choice\n      question: q\n      fallback: a\n`,
      'steps[1].decide.type',
      12,
      13,
      'A choice needs at least 2 distinct options.',
    ],
    [
      'choice fallback not an option',
      `      type: choice\n      question: q\n      options: [a, b]\n      fallback: c\n`,
      'steps[1].decide.fallback',
      15,
      17,
      'The fallback of a choice must be one of its options.',
    ],
    [
      'noul with a string fallback',
      `      type: noul\n      question: q\n      fallback: "no"\n`,
      'steps[1].decide.fallback',
      14,
      17,
      'The fallback of a noul must be a boolean or a probability from 0 to 1.',
    ],
    [
      'noul probability above 1',
      `      type: noul\n      question: q\n      fallback: 1.5\n`,
      'steps[1].decide.fallback',
      14,
      17,
      'The fallback of a noul must be a boolean or a probability from 0 to 1.',
    ],
    [
      'score fallback 5',
      `      type: score\n      question: q\n      fallback: 5\n`,
      'steps[1].decide.fallback',
      14,
      17,
      'The fallback of a score must be an integer from 0 to 4.',
    ],
    [
      'score fallback 1.5',
      `      type: score\n      question: q\n      fallback: 1.5\n`,
      'steps[1].decide.fallback',
      14,
      17,
      'The fallback of a score must be an integer from 0 to 4.',
    ],
    [
      'options on a score',
      `      type: score\n      question: q\n      options: [a, b]\n      fallback: 1\n`,
      'steps[1].decide.options',
      14,
      16,
      'Only a choice has options.',
    ],
  ])('%s → INVALID_DECISION at its position', (_name, body, path, line, column, message) => {
    expect(diagnosticsOf(decide(body))).toEqual([{ code: 'INVALID_DECISION', message, path, line, column }]);
  });

  it('requires a fallback and checks context templates like every other template', () => {
    const diags = diagnosticsOf(
      decide(`      type: noul
      question: "Ask {{steps.nope.x}}"
      context: "{{steps.search.nope}}"
`),
    );
    expect(diags.map((d) => [d.code, d.path])).toEqual([['MISSING_FIELD', 'steps[1].decide']]);
    const refs = diagnosticsOf(
      decide(`      type: noul
      question: "Ask {{steps.nope.x}}"
      context: "{{steps.search.nope}}"
      fallback: true
`),
    );
    expect(refs.map((d) => [d.code, d.path, d.line])).toEqual([
      ['UNKNOWN_STEP', 'steps[1].decide.question', 13],
      ['UNKNOWN_OUTPUT_FIELD', 'steps[1].decide.context', 14],
    ]);
  });

  it('types the output for the reference checker', () => {
    const diags = diagnosticsOf(
      decide(
        `      type: score\n      question: q\n      fallback: 0\n`,
        `  - id: notify
    send_chat_message: { title: t, message: "{{steps.worth_it.answer}} {{steps.worth_it.verdict}}" }
`,
      ),
    );
    expect(diags.map((d) => [d.code, d.path])).toEqual([
      ['UNKNOWN_OUTPUT_FIELD', 'steps[2].send_chat_message.message'],
    ]);
  });

  it('checks @encyclopedia references in the question', () => {
    const diags = diagnosticsOf(
      decide(`      type: noul\n      question: "Is it like @encyclopedia:xx?"\n      fallback: false\n`),
    );
    expect(diags.map((d) => [d.code, d.path])).toEqual([
      ['INVALID_ENCYCLOPEDIA_REFERENCE', 'steps[1].decide.question'],
    ]);
  });

  it('a step with decide and another action is MULTIPLE_ACTIONS', () => {
    const diags = diagnosticsOf(
      decide(
        `      type: noul\n      question: q\n      fallback: false\n    use_app_skill: hosting.search_domains\n    input: { requests: [{ query: cedar }] }\n`,
      ),
    );
    expect(diags.map((d) => [d.code, d.message])).toEqual([
      [
        'MULTIPLE_ACTIONS',
        'A step needs exactly one of use_app_skill, send_chat_message, decide, wait, fail, for_each, parallel, use_workflow, wait_for_approval and wait_for_event.',
      ],
    ]);
  });
});
