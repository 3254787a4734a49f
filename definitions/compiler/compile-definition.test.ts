import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatDiagnostics } from '../diagnostics.js';
import { LIMITS } from '../limits.js';
import { detectFormat } from '../source/parse-source.js';
import type { Plan } from '../runtime/plan.js';
import { compileForTest, diagnosticsOf, planOf, SEARCH_STEP, withSteps } from '../testing/compile.js';

const example = (name: string) => readFileSync(new URL(`../examples/${name}`, import.meta.url), 'utf8');

const SPEC_PLAN: Plan = {
  planVersion: 1,
  title: 'Domain ideas',
  trigger: { type: 'manual', inputs: {} },
  steps: [
    {
      id: 'search',
      kind: 'skill',
      skill: 'hosting.search_domains',
      activity: 'hosting.search_domains',
      continueOnError: false,
      input: { kind: 'literal', value: { requests: [{ query: 'cedar', tlds: ['com'] }] } },
    },
    {
      id: 'notify',
      kind: 'chat',
      continueOnError: false,
      title: [{ kind: 'text', text: 'Domains' }],
      message: [
        {
          kind: 'value',
          expr: { kind: 'ref', ref: { root: 'steps', step: 'search', path: ['result_count'] } },
        },
        { kind: 'text', text: ' domains found' },
      ],
    },
  ],
};

describe('compileDefinition', () => {
  it('compiles the spec example to the expected plan', () => {
    expect(compileForTest(example('domain-ideas.yaml'))).toEqual({
      ok: true,
      plan: SPEC_PLAN,
      diagnostics: [],
      outline: {
        steps: [
          {
            id: 'search',
            line: 5,
            fields: expect.arrayContaining([{ name: 'result_count', type: 'number' }]),
          },
          { id: 'notify', line: 11, fields: [] },
        ],
      },
    });
  });

  it('compiles the same definition written as JSON to the same plan', () => {
    const json = JSON.stringify(
      {
        title: 'Domain ideas',
        start_when: { manual: {} },
        steps: [
          {
            id: 'search',
            use_app_skill: 'hosting.search_domains',
            input: { requests: [{ query: 'cedar', tlds: ['com'] }] },
          },
          {
            id: 'notify',
            send_chat_message: { title: 'Domains', message: '{{steps.search.result_count}} domains found' },
          },
        ],
      },
      null,
      2,
    );
    expect(planOf(json)).toEqual(SPEC_PLAN);
  });

  it('reports a JSON syntax error at its position, detecting JSON from the text', () => {
    const json = '{\n  "title": "t",\n  "start_when": { "manual": {} }\n  "steps": []\n}';
    expect(diagnosticsOf(json)).toEqual([
      {
        code: 'JSON_SYNTAX',
        message: 'Expected "}" but found another character.',
        path: '',
        line: 4,
        column: 3,
      },
    ]);
    expect(diagnosticsOf(json, 'yaml')[0]?.code).toBe('YAML_SYNTAX');
  });

  it('detects the format from the file name first', () => {
    expect([
      detectFormat('{}', 'a.yaml'),
      detectFormat('a: 1', 'a.JSON'),
      detectFormat(' {"a":1}'),
      detectFormat('a: 1'),
    ]).toEqual(['yaml', 'json', 'json', 'yaml']);
  });

  it('formats diagnostics for the CLI', () => {
    const diagnostics = diagnosticsOf(withSteps(SEARCH_STEP + '  - id: x\n    use_app_skill: nope.nope\n'));
    expect(formatDiagnostics('flows/a.yaml', diagnostics)).toEqual([
      'flows/a.yaml:11:20: UNKNOWN_SKILL Unknown skill. Known skills: billing.charge_card, design.search_icons, electronics.get_power_design, electronics.search_power_designs, encyclopedia.get_summary, encyclopedia.search_articles, hosting.search_domains.',
    ]);
  });

  it('compiles the scheduled example with its trigger, timeout and condition', () => {
    const plan = planOf(example('daily-domain-watch.yaml'));
    expect(plan.trigger).toEqual({ type: 'schedule', cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' });
    expect(plan.steps[0]).toMatchObject({ id: 'search', timeoutMs: 50_000, continueOnError: false });
    expect(plan.steps[1]).toMatchObject({
      id: 'notify',
      continueOnError: true,
      if: {
        kind: 'compare',
        op: '>',
        left: { kind: 'ref', ref: { root: 'steps', step: 'search', path: ['result_count'] } },
        right: { kind: 'literal', value: 0 },
      },
    });
  });

  it('produces a plan that survives a JSON round trip unchanged', () => {
    const plan = planOf(example('daily-domain-watch.yaml'));
    expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
  });

  it('reports every problem in one file at once, in source order', () => {
    const source = [
      'title: t', //                                   1
      'start_when:', //                                2
      '  schedule: { cron: "0 25 * * *", timezone: Europe/Berln }',
      'steps:', //                                     4
      '  - id: search', //                             5
      '    use_app_skill: hosting.search_domain', //   6
      '    input: {}', //                              7
      '  - id: Notify', //                             8
      '    send_chat_message:', //                     9
      '      title: x', //                            10
      '      message: "{{steps.search.nope}}"', //    11
      '  - id: pay', //                               12
      '    use_app_skill: billing.charge_card', //    13
      '    input: { amount: 5 }', //                  14
    ].join('\n');
    expect(diagnosticsOf(source).map((d) => [d.code, d.path, d.line, d.column])).toEqual([
      ['INVALID_CRON', 'start_when.schedule.cron', 3, 21],
      ['INVALID_TIMEZONE', 'start_when.schedule.timezone', 3, 45],
      ['UNKNOWN_SKILL', 'steps[0].use_app_skill', 6, 20],
      ['INVALID_STEP_ID', 'steps[1].id', 8, 9],
      // The search step's skill is unknown, so its output is unknown too: no cascade here.
      ['SKILL_NOT_UNATTENDED', 'steps[2].use_app_skill', 13, 20],
    ]);
  });

  it('reports a duplicate key with its path alongside later problems', () => {
    const source = [
      'title: t',
      'steps:',
      '- id: a',
      '  id: b',
      '  send_chat_message: { title: x, message: "{{steps.zzz.q}}" }',
      'start_when: { manual: {} }',
    ].join('\n');
    expect(diagnosticsOf(source)).toEqual([
      {
        code: 'DUPLICATE_KEY',
        message: 'Duplicate key: a key may appear only once in a mapping.',
        path: 'steps[0].id',
        line: 4,
        column: 3,
      },
      {
        code: 'UNKNOWN_STEP',
        message: 'The reference names a step that does not exist.',
        path: 'steps[0].send_chat_message.message',
        line: 5,
        column: 46,
      },
    ]);
  });

  it('rejects a skill that may not run unattended only in scheduled definitions', () => {
    const pay = '  - id: pay\n    use_app_skill: billing.charge_card\n    input: { amount: 5 }\n';
    expect(planOf(withSteps(pay)).steps[0]).toMatchObject({ kind: 'skill', skill: 'billing.charge_card' });
    const scheduled = withSteps(pay, '  schedule: { every: 1h, timezone: UTC }');
    expect(diagnosticsOf(scheduled)).toEqual([
      {
        code: 'SKILL_NOT_UNATTENDED',
        message: 'This skill may not run unattended, so it cannot be used in a scheduled definition.',
        path: 'steps[0].use_app_skill',
        line: 6,
        column: 20,
      },
    ]);
  });

  it('names the known skills when a skill is unknown', () => {
    const [d] = diagnosticsOf(withSteps('  - id: a\n    use_app_skill: hosting.nope\n'));
    expect(d).toMatchObject({ code: 'UNKNOWN_SKILL', line: 6, column: 20 });
    expect(d?.message).toBe(
      'Unknown skill. Known skills: billing.charge_card, design.search_icons, electronics.get_power_design, electronics.search_power_designs, encyclopedia.get_summary, encyclopedia.search_articles, hosting.search_domains.',
    );
  });

  it('suggests the closest skill in the message and in suggestions', () => {
    const [d] = diagnosticsOf(withSteps('  - id: a\n    use_app_skill: hosting.search_domain\n'));
    expect(d).toEqual({
      code: 'UNKNOWN_SKILL',
      message:
        'Unknown skill. Did you mean hosting.search_domains? Known skills: billing.charge_card, design.search_icons, electronics.get_power_design, electronics.search_power_designs, encyclopedia.get_summary, encyclopedia.search_articles, hosting.search_domains.',
      path: 'steps[0].use_app_skill',
      line: 6,
      column: 20,
      suggestions: ['hosting.search_domains'],
    });
  });

  it('suggests the closest step ids of an unknown step in suggestions only, never in the message', () => {
    const diagnostics = diagnosticsOf(
      withSteps(
        SEARCH_STEP +
          "  - id: notify\n    send_chat_message:\n      title: t\n      message: '{{steps.serch.result_count}}'\n",
      ),
    );
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'UNKNOWN_STEP',
        message: 'The reference names a step that does not exist.',
        suggestions: ['search'],
      }),
    ]);
    expect(formatDiagnostics('a.yaml', diagnostics)[0]).toMatch(
      /^a\.yaml:\d+:\d+: UNKNOWN_STEP The reference names a step that does not exist\. \(did you mean search\?\)$/,
    );
  });

  it('checks step ids and actions', () => {
    const steps = [
      SEARCH_STEP,
      '  - id: search\n    send_chat_message: { title: a, message: b }\n',
      '  - id: constructor\n    send_chat_message: { title: a, message: b }\n',
      '  - id: none\n',
      '  - id: both\n    use_app_skill: hosting.search_domains\n    send_chat_message: { title: a, message: b }\n',
      '  - id: chat\n    send_chat_message: { title: a, message: b }\n    input: {}\n',
    ].join('');
    expect(diagnosticsOf(withSteps(steps)).map((d) => [d.code, d.path])).toEqual([
      ['DUPLICATE_STEP_ID', 'steps[1].id'],
      ['INVALID_STEP_ID', 'steps[2].id'],
      ['MISSING_ACTION', 'steps[3]'],
      ['INVALID_SKILL_INPUT', 'steps[4].input'],
      ['MULTIPLE_ACTIONS', 'steps[4]'],
      ['UNKNOWN_FIELD', 'steps[5].input'],
    ]);
  });

  it('requires start_when', () => {
    expect(
      diagnosticsOf('title: t\nsteps:\n  - id: a\n    send_chat_message: { title: a, message: b }\n'),
    ).toEqual([
      {
        code: 'MISSING_FIELD',
        message: 'Missing required field "start_when".',
        path: '',
        line: 1,
        column: 1,
      },
    ]);
    expect(diagnosticsOf('title: t\nsteps: []\n').map((d) => d.code)).toEqual([
      'MISSING_FIELD',
      'INVALID_VALUE',
    ]);
    expect(diagnosticsOf('- a\n- b\n').map((d) => d.code)).toEqual(['INVALID_TYPE']);
  });

  it('requires a non-empty step list', () => {
    expect(diagnosticsOf('title: t\nstart_when: { manual: {} }\nsteps: []\n')).toMatchObject([
      { code: 'INVALID_VALUE', path: 'steps', line: 3, column: 8 },
    ]);
  });
});

describe('concurrency', () => {
  const MANUAL = '  manual:\n    inputs:\n      customer: { type: string, required: true }';
  const define = (concurrency: string) => `concurrency: ${concurrency}\n` + withSteps(SEARCH_STEP, MANUAL);

  it('carries the limit and the key template in the plan', () => {
    expect(planOf(define("{ limit: 3, key: 'c-{{inputs.customer}}' }")).concurrency).toEqual({
      limit: 3,
      key: {
        kind: 'text',
        template: [
          { kind: 'text', text: 'c-' },
          { kind: 'value', expr: { kind: 'ref', ref: { root: 'inputs', name: 'customer', path: [] } } },
        ],
      },
    });
    expect(planOf(define('{ limit: 1000 }')).concurrency).toEqual({ limit: 1000 });
    expect(planOf(withSteps(SEARCH_STEP)).concurrency).toBeUndefined();
  });

  it.each([
    ['{ limit: 0 }', 'INVALID_VALUE', 'concurrency.limit'],
    ['{ limit: 1001 }', 'INVALID_VALUE', 'concurrency.limit'],
    ['{ limit: 1.5 }', 'INVALID_TYPE', 'concurrency.limit'],
    ['{ key: x }', 'MISSING_FIELD', 'concurrency'],
    ['{ limit: 2, per: x }', 'UNKNOWN_FIELD', 'concurrency.per'],
    ["{ limit: 2, key: '{{steps.search.result_count}}' }", 'UNKNOWN_STEP', 'concurrency.key'],
    ["{ limit: 2, key: '{{inputs.nobody}}' }", 'UNKNOWN_INPUT', 'concurrency.key'],
  ])('refuses concurrency %s with %s at %s', (concurrency, code, path) => {
    expect(diagnosticsOf(define(concurrency)).map((d) => [d.code, d.path])).toEqual([[code, path]]);
  });
});

describe('size limits', () => {
  it(`rejects sources over ${LIMITS.maxSourceBytes} bytes`, () => {
    const source = `title: t\ndescription: "${'x'.repeat(LIMITS.maxSourceBytes)}"\n`;
    expect(diagnosticsOf(source)).toEqual([
      {
        code: 'TOO_LARGE',
        message: `The definition is ${source.length} bytes; the limit is 65536.`,
        path: '',
        line: 1,
        column: 1,
      },
    ]);
  });

  it(`rejects more than ${LIMITS.maxSteps} steps`, () => {
    const steps = Array.from(
      { length: 201 },
      (_, i) => `  - id: s${i}\n    send_chat_message: { title: a, message: b }\n`,
    );
    expect(diagnosticsOf(withSteps(steps.join('')))).toMatchObject([
      { code: 'TOO_LARGE', path: 'steps', line: 4, column: 1 },
    ]);
    expect(planOf(withSteps(steps.slice(1).join(''))).steps).toHaveLength(200);
  });

  it(`rejects templates over ${LIMITS.maxTemplateChars} characters`, () => {
    const long = 'x'.repeat(LIMITS.maxTemplateChars + 1);
    const source = withSteps(
      `  - id: a\n    send_chat_message: { title: a, message: "${long}{{inputs.x}}" }\n`,
    );
    expect(diagnosticsOf(source)).toMatchObject([
      { code: 'TOO_LARGE', path: 'steps[0].send_chat_message.message' },
    ]);
  });

  it(`rejects more than ${LIMITS.maxRunInputs} run inputs`, () => {
    const inputs = Array.from({ length: 101 }, (_, i) => `      i${i}: { type: string }`).join('\n');
    const source = withSteps(SEARCH_STEP, `  manual:\n    inputs:\n${inputs}`);
    expect(diagnosticsOf(source)).toMatchObject([
      { code: 'TOO_LARGE', path: 'start_when.manual.inputs', line: 4, column: 5 },
    ]);
  });

  it(`lists the first ${LIMITS.maxDiagnostics} diagnostics and says how many more were found`, () => {
    // Lines 10-139: 130 unknown fields, each a diagnostic at its key.
    const fields = Array.from({ length: 130 }, (_, i) => `f${i}: 1\n`).join('');
    const unknown = (line: number) => ({
      code: 'UNKNOWN_FIELD',
      message: 'Unknown field: it is not defined here.',
      path: `f${line - 10}`,
      line,
      column: 1,
    });
    const diagnostics = diagnosticsOf(withSteps(SEARCH_STEP) + fields);
    expect(diagnostics).toHaveLength(LIMITS.maxDiagnostics + 1);
    expect(diagnostics.slice(0, LIMITS.maxDiagnostics)).toEqual(
      Array.from({ length: LIMITS.maxDiagnostics }, (_, i) => unknown(i + 10)),
    );
    expect(diagnostics[LIMITS.maxDiagnostics]).toEqual({
      code: 'TOO_LARGE',
      message: '30 more problems were found; only the first 100 are listed.',
      path: '',
      line: 110,
      column: 1,
    });
    const exactly = Array.from({ length: LIMITS.maxDiagnostics }, (_, i) => `f${i}: 1\n`).join('');
    expect(diagnosticsOf(withSteps(SEARCH_STEP) + exactly)).toEqual(
      Array.from({ length: LIMITS.maxDiagnostics }, (_, i) => unknown(i + 10)),
    );
  });
});
