/**
 * Diagnostics never quote the author's text (house style: messages name the rule, the path and
 * position say where). Every position that can produce a diagnostic holds text with the marker
 * `qz`; no message may contain it, while code, path, line and column still point at the text.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../diagnostics.js';
import { diagnosticsOf } from '../testing/compile.js';

const MARKER = /qz/i;

interface Case {
  name: string;
  source: string;
  format?: 'json' | 'yaml';
  /** Author text without the marker that must not be quoted either. */
  alsoSecret?: string[];
  expected: [Diagnostic['code'], string, number, number][];
}

const MANUAL = [
  'title: t',
  'start_when:',
  '  manual:',
  '    inputs:',
  '      Qz_Input: { type: string }',
  '      count: { type: integer, default: "qzfive" }',
  'steps:',
  '  - id: Qz_Step',
  '    use_app_skill: qz.unknown_skill',
  '  - id: search',
  '    use_app_skill: hosting.search_domains',
  '    timeout: qzfast',
  '    if: qzname == 1',
  '    input:',
  '      requests:',
  '        - query: "{{steps.qzghost.x}}"',
  '          qzcolour: red',
  '          tlds: $nodes.search.output.qzfield',
  '          country: $nodes.qzstep.qzoutput',
  '  - id: search',
  '    send_chat_message:',
  '      title: "{{qzhelper steps.search.raw}} {{#qzblock steps.search}}x{{/qzblock}}"',
  '      message: "{{inputs.qzundeclared}} {{steps.search.results.0.qzfield}} {{qzpath}} {{@qzdata}} {{steps.search.qzx.__proto__}}"',
  '      chat_id: "{{#each steps.search.qzcount}}{{/each}}{{#each steps.search.result_count}}{{/each}}"',
  '  - id: later',
  '    if: inputs.count = qzvalue',
  '    send_chat_message: { title: "{{#if inputs.count}}qzopen", message: "{{#if inputs.count}}{{/qzclose}}" }',
  '  - id: cond',
  '    if: "@qz"',
  '    send_chat_message: { title: "{{#each steps.search.results}}{{../qzparent}}{{/each}}", message: "{{steps.cond.qzself}} {{steps.last.qzlater}}"}',
  '  - id: last',
  '    if: $nodes.search.qzoutput',
  '    send_chat_message: { title: t, message: m }',
].join('\n');

const CASES: Case[] = [
  {
    name: 'a manual definition: ids, skill, inputs, references, helpers, conditions',
    source: MANUAL,
    expected: [
      ['INVALID_INPUT_NAME', 'start_when.manual.inputs.Qz_Input', 5, 7],
      ['INVALID_DEFAULT', 'start_when.manual.inputs.count.default', 6, 40],
      ['INVALID_STEP_ID', 'steps[0].id', 8, 9],
      ['UNKNOWN_SKILL', 'steps[0].use_app_skill', 9, 20],
      ['INVALID_DURATION', 'steps[1].timeout', 12, 14],
      ['CONDITION_SYNTAX', 'steps[1].if', 13, 9],
      ['UNKNOWN_STEP', 'steps[1].input.requests[0].query', 16, 21],
      ['INVALID_SKILL_INPUT', 'steps[1].input.requests[0].qzcolour', 17, 11],
      ['FORWARD_REFERENCE', 'steps[1].input.requests[0].tlds', 18, 17],
      ['INVALID_SKILL_INPUT', 'steps[1].input.requests[0].country', 19, 20],
      ['INVALID_REFERENCE', 'steps[1].input.requests[0].country', 19, 33],
      ['DUPLICATE_STEP_ID', 'steps[2].id', 20, 9],
      ['UNKNOWN_HELPER', 'steps[2].send_chat_message.title', 22, 15],
      ['UNKNOWN_HELPER', 'steps[2].send_chat_message.title', 22, 45],
      ['UNKNOWN_INPUT', 'steps[2].send_chat_message.message', 23, 19],
      ['UNKNOWN_OUTPUT_FIELD', 'steps[2].send_chat_message.message', 23, 43],
      ['INVALID_REFERENCE', 'steps[2].send_chat_message.message', 23, 78],
      ['TEMPLATE_NOT_ALLOWED', 'steps[2].send_chat_message.message', 23, 89],
      ['FORBIDDEN_PROPERTY', 'steps[2].send_chat_message.message', 23, 101],
      ['UNKNOWN_OUTPUT_FIELD', 'steps[2].send_chat_message.chat_id', 24, 25],
      ['NOT_A_LIST', 'steps[2].send_chat_message.chat_id', 24, 64],
      ['CONDITION_SYNTAX', 'steps[3].if', 26, 22],
      ['TEMPLATE_SYNTAX', 'steps[3].send_chat_message.title', 27, 34],
      ['TEMPLATE_SYNTAX', 'steps[3].send_chat_message.message', 27, 73],
      ['CONDITION_SYNTAX', 'steps[4].if', 29, 10],
      ['TEMPLATE_NOT_ALLOWED', 'steps[4].send_chat_message.title', 30, 66],
      ['FORWARD_REFERENCE', 'steps[4].send_chat_message.message', 30, 103],
      ['FORWARD_REFERENCE', 'steps[4].send_chat_message.message', 30, 125],
      ['CONDITION_SYNTAX', 'steps[5].if', 32, 22],
    ],
  },
  {
    name: 'a cron schedule: cron, timezone, unattended skill, run inputs',
    source: [
      'title: t',
      'start_when:',
      '  schedule:',
      '    cron: "qzminute 9 * * *"',
      '    timezone: Qz/Nowhere',
      'steps:',
      '  - id: pay',
      '    use_app_skill: billing.charge_card',
      '    input: { amount: 5 }',
      '  - id: notify',
      '    send_chat_message: { title: t, message: "{{inputs.qzinput}}" }',
    ].join('\n'),
    alsoSecret: ['billing.charge_card'],
    expected: [
      ['INVALID_CRON', 'start_when.schedule.cron', 4, 11],
      ['INVALID_TIMEZONE', 'start_when.schedule.timezone', 5, 15],
      ['SKILL_NOT_UNATTENDED', 'steps[0].use_app_skill', 8, 20],
      ['UNKNOWN_INPUT', 'steps[1].send_chat_message.message', 11, 48],
    ],
  },
  {
    name: 'an every schedule: every, too-long timeout, skill input values',
    source: [
      'title: t',
      'start_when:',
      '  schedule: { every: qz15m, timezone: UTC }',
      'steps:',
      '  - id: search',
      '    use_app_skill: hosting.search_domains',
      '    timeout: 6m',
      '    input: { requests: [{ query: qzcedar, max_results: 99 }] }',
    ].join('\n'),
    alsoSecret: ['6m', '99'],
    expected: [
      ['INVALID_DURATION', 'start_when.schedule.every', 3, 22],
      ['TIMEOUT_TOO_LONG', 'steps[0].timeout', 7, 14],
      ['INVALID_SKILL_INPUT', 'steps[0].input.requests[0].max_results', 8, 56],
    ],
  },
  {
    name: 'JSON: a duplicate key',
    format: 'json',
    source:
      '{"title": "t", "qzkey": 1,\n "qzkey": 2, "start_when": {"manual": {}}, "steps": [{"id": "a", "send_chat_message": {"title": "t", "message": "m"}}]}',
    expected: [
      ['DUPLICATE_KEY', 'qzkey', 2, 2],
      ['UNKNOWN_FIELD', 'qzkey', 2, 2],
    ],
  },
  {
    name: 'JSON: an unexpected character',
    format: 'json',
    source: '{"title": qzbare}',
    expected: [['JSON_SYNTAX', '', 1, 11]],
  },
  {
    name: 'JSON: a missing colon',
    format: 'json',
    source: '{"title" qz}',
    expected: [['JSON_SYNTAX', '', 1, 10]],
  },
  {
    name: 'YAML: duplicate keys, anchors, aliases and tags',
    source:
      'title: !qztag t\nqzkey: 1\nqzkey: 2\nstart_when: &qzanchor { manual: {} }\nsteps:\n  - id: a\n    send_chat_message: { title: !!str qz, message: *qzanchor }\n',
    expected: [
      ['TAG_NOT_ALLOWED', 'title', 1, 8],
      ['DUPLICATE_KEY', 'qzkey', 3, 1],
      ['UNKNOWN_FIELD', 'qzkey', 3, 1],
      ['ALIAS_NOT_ALLOWED', 'start_when', 4, 13],
      ['TAG_NOT_ALLOWED', 'steps[0].send_chat_message.title', 7, 33],
      ['ALIAS_NOT_ALLOWED', 'steps[0].send_chat_message.message', 7, 52],
      ['INVALID_TYPE', 'steps[0].send_chat_message.message', 7, 52],
    ],
  },
  {
    name: 'YAML: a syntax error that the parser would quote',
    source: 'title: "qz\\q"\n',
    expected: [['YAML_SYNTAX', '', 1, 11]],
  },
];

describe('diagnostics never quote the definition', () => {
  it.each(CASES)('$name', ({ source, format, alsoSecret = [], expected }) => {
    const diagnostics = diagnosticsOf(source, format);
    expect(diagnostics.map((d) => [d.code, d.path, d.line, d.column])).toEqual(expected);
    const quoting = diagnostics.filter(
      (d) => MARKER.test(d.message) || alsoSecret.some((text) => d.message.includes(text)),
    );
    expect(quoting).toEqual([]);
  });
});
