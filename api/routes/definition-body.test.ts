/**
 * The documented definition schema against the compiler: every example definition and a
 * definition holding every action and step field, nested as deep as the compiler allows, are
 * accepted by both; shapes the compiler refuses for their structure are refused by both.
 *
 * ajv is not a direct dependency, but Fastify is and validates with ajv 8: its `ajv.plugins` hook
 * hands over that instance, set to report rather than coerce or strip.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileForTest } from '../../definitions/testing/compile.js';
import { createTestCatalog } from '../../definitions/testing/test-catalog.js';
import { definitionJsonSchema } from './definition-body.js';

type AjvPlugin = Extract<
  NonNullable<NonNullable<FastifyServerOptions['ajv']>['plugins']>[number],
  (...args: never[]) => unknown
>;
type Ajv = Parameters<AjvPlugin>[0];
type ValidateFn = ReturnType<Ajv['compile']>;

const EXAMPLES = path.resolve(import.meta.dirname, '../../definitions/examples');
const SKILLS = createTestCatalog().list();

let validate: ValidateFn;

beforeAll(async () => {
  let ajv: Ajv | undefined;
  const app = Fastify({
    ajv: {
      customOptions: {
        coerceTypes: false,
        removeAdditional: false,
        useDefaults: false,
        allErrors: true,
        // zod writes `not: { required }` and type lists, which strict typing only warns about.
        strictTypes: false,
      },
      plugins: [
        (instance) => {
          ajv = instance;
          return instance;
        },
      ],
    },
  });
  app.post('/', { schema: { body: { type: 'object' } } }, () => ({}));
  await app.ready();
  await app.close();
  validate = ajv!.compile(definitionJsonSchema(SKILLS));
});

/** Whether the schema accepts `value`, and the codes of the compiler's diagnostics (none: it compiles). */
function verdicts(value: unknown): { schema: boolean; compiler: string[] } {
  const result = compileForTest(JSON.stringify(value), 'json');
  return { schema: validate(value) === true, compiler: [...new Set(result.diagnostics.map((d) => d.code))] };
}

const chat = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  send_chat_message: { title: 'Report', message: 'Done.' },
  ...extra,
});

/** Every action and step field, with for_each, parallel and on_error nested 3 deep. */
const EVERY_FIELD = {
  title: 'Every field',
  description: 'Each action and step field the language has.',
  start_when: {
    manual: {
      inputs: {
        names: { type: 'array', required: true, description: 'Ideas' },
        who: { type: 'string', default: 'ops' },
      },
    },
  },
  steps: [
    {
      id: 'search',
      use_app_skill: 'hosting.search_domains',
      input: { requests: [{ query: 'cedar', tlds: ['com'] }] },
      timeout: '30s',
      retry: { max_attempts: 2, initial_interval: '1s', backoff: 2 },
      on_error: [
        chat('search_failed', { send_chat_message: { title: 'Search', message: '{{error.code}}' } }),
      ],
    },
    chat('tell', {
      send_chat_message: { title: 'T', message: 'M', chat_id: 'ops' },
      timeout: '10s',
      retry: { max_attempts: 3 },
      continue_on_error: true,
    }),
    {
      id: 'pick',
      decide: {
        type: 'choice',
        question: 'Which one?',
        options: ['a', 'b'],
        fallback: 'a',
        min_confidence: 0.5,
      },
      timeout: '30s',
      retry: { max_attempts: 2 },
    },
    { id: 'pause', wait: { duration: '1m' }, continue_on_error: true },
    { id: 'until', wait: { until: '2026-12-01T09:00:00Z' } },
    {
      id: 'approve',
      wait_for_approval: {
        title: 'Register it?',
        payload: { budget: { type: 'number', required: true } },
        timeout: '1h',
        on_timeout: 'continue',
      },
    },
    {
      id: 'paid',
      wait_for_event: {
        name: 'order.paid',
        match: { order: '{{inputs.who}}' },
        timeout: '1d',
        on_timeout: 'fail',
      },
    },
    { id: 'child', use_workflow: { workflow: 'wf_child', version: 2, inputs: { x: 1 } } },
    {
      id: 'each_name',
      for_each: {
        items: '{{inputs.names}}',
        concurrency: 2,
        steps: [
          {
            id: 'sides',
            parallel: {
              steps: [
                { id: 'inner_loop', for_each: { items: [1, 2], steps: [chat('leaf')] } },
                chat('inner_chat', { on_error: [{ id: 'inner_handler', wait: { duration: '1s' } }] }),
              ],
            },
          },
        ],
      },
    },
    { id: 'stop', if: "inputs.who == 'nobody'", fail: { code: 'STOPPED_BY_AUTHOR', message: 'Stopped.' } },
  ],
  outputs: { first: '{{steps.search.results.0.domain}}' },
  concurrency: { limit: 5, key: 'team-{{inputs.who}}' },
};

/** `EVERY_FIELD` with its `tell` step replaced by `step`. */
const withStep = (step: object) => ({
  ...EVERY_FIELD,
  steps: EVERY_FIELD.steps.map((s) => (s.id === 'tell' ? step : s)),
});

/** `depth` parallel groups nested in one another (the compiler allows 3). */
const nested = (depth: number): object =>
  depth === 0
    ? chat('deepest')
    : { id: `level_${depth}`, parallel: { steps: [nested(depth - 1), chat(`c${depth}`)] } };

describe('definitionJsonSchema', () => {
  it('accepts every example definition, as the compiler does', () => {
    const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBe(9);
    for (const file of files) {
      const value: unknown = parse(readFileSync(path.join(EXAMPLES, file), 'utf8'));
      expect({ file, ...verdicts(value), errors: validate.errors ?? null }).toEqual({
        file,
        schema: true,
        compiler: [],
        errors: null,
      });
    }
  });

  it('accepts a definition with every action and step field, nested as deep as the compiler allows', () => {
    expect(verdicts(EVERY_FIELD)).toEqual({ schema: true, compiler: [] });
  });

  it.each([
    ['two actions in one step', 'MULTIPLE_ACTIONS', withStep({ ...chat('tell'), wait: { duration: '1m' } })],
    ['an unknown action', 'UNKNOWN_FIELD', withStep({ id: 'tell', send_email: { to: 'a' } })],
    ['no action', 'MISSING_ACTION', withStep({ id: 'tell' })],
    ['an unknown skill', 'UNKNOWN_SKILL', withStep({ id: 'tell', use_app_skill: 'hosting.nothing' })],
    [
      'retry on a wait step',
      'UNKNOWN_FIELD',
      withStep({ id: 'tell', wait: { duration: '1m' }, retry: { max_attempts: 2 } }),
    ],
    ['input on a chat step', 'UNKNOWN_FIELD', withStep(chat('tell', { input: { a: 1 } }))],
    [
      'on_error with continue_on_error',
      'INVALID_VALUE',
      withStep(chat('tell', { continue_on_error: true, on_error: [chat('h')] })),
    ],
    [
      'on_error on a fail step',
      'INVALID_VALUE',
      withStep({ id: 'tell', fail: { code: 'MY_CODE', message: 'x' }, on_error: [chat('h')] }),
    ],
    [
      'a lower-case fail code',
      'INVALID_VALUE',
      withStep({ id: 'tell', fail: { code: 'my_code', message: 'x' } }),
    ],
    [
      'wait with duration and until',
      'INVALID_VALUE',
      withStep({ id: 'tell', wait: { duration: '1m', until: '2026-12-01T09:00:00Z' } }),
    ],
    [
      'a parallel of one step',
      'INVALID_VALUE',
      withStep({ id: 'tell', parallel: { steps: [chat('only')] } }),
    ],
    ['an invalid step id', 'INVALID_STEP_ID', withStep(chat('Tell'))],
    ['an invalid output name', 'INVALID_VALUE', { ...EVERY_FIELD, outputs: { First: 'x' } }],
    ['a concurrency limit of 0', 'INVALID_VALUE', { ...EVERY_FIELD, concurrency: { limit: 0 } }],
    ['a concurrency limit of 1001', 'INVALID_VALUE', { ...EVERY_FIELD, concurrency: { limit: 1001 } }],
    ['a concurrency without limit', 'MISSING_FIELD', { ...EVERY_FIELD, concurrency: { key: 'x' } }],
    [
      'an unknown concurrency field',
      'UNKNOWN_FIELD',
      { ...EVERY_FIELD, concurrency: { limit: 1, per: 'x' } },
    ],
  ])('refuses %s, as the compiler does (%s)', (_name, code, value) => {
    expect(verdicts(value)).toEqual({ schema: false, compiler: [code] });
  });

  it('accepts plain-text outputs past the template limit, as the compiler does', () => {
    const long = { ...EVERY_FIELD, outputs: { note: 'x'.repeat(20_000) } };
    expect(verdicts(long)).toEqual({ schema: true, compiler: [] });
  });

  it('accepts groups nested 3 deep, as the compiler does', () => {
    expect(verdicts(withStep(nested(3)))).toEqual({ schema: true, compiler: [] });
  });

  it('leaves inner steps past their id to the compiler', () => {
    const twoActions = {
      id: 'tell',
      parallel: { steps: [chat('a', { wait: { duration: '1m' } }), chat('b')] },
    };
    expect(verdicts(withStep(twoActions))).toEqual({ schema: true, compiler: ['MULTIPLE_ACTIONS'] });
    expect(verdicts(withStep(nested(4)))).toEqual({ schema: true, compiler: ['TOO_LARGE'] });
    const badId = { id: 'tell', parallel: { steps: [chat('Bad'), chat('b')] } };
    expect(verdicts(withStep(badId))).toEqual({ schema: false, compiler: ['INVALID_STEP_ID'] });
  });
});
