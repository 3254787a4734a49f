import { describe, expect, it } from 'vitest';
import type { ChatPlanStep, RunScope } from '../runtime/plan.js';
import { renderTemplate } from '../runtime/render-template.js';
import { diagnosticsOf, planOf, SEARCH_STEP, withSteps } from '../testing/compile.js';

const INPUTS = '  manual:\n    inputs:\n      name: { type: string }\n      tags: { type: array }';

/** A definition whose second step sends `message` (YAML single-quoted, on line 16). */
const source = (message: string) =>
  withSteps(
    `${SEARCH_STEP}  - id: notify\n    send_chat_message:\n      title: t\n      message: '${message}'\n`,
    INPUTS,
  );

const messageOf = (message: string) => (planOf(source(message)).steps[1] as ChatPlanStep).message;
const errorsOf = (message: string) =>
  diagnosticsOf(source(message)).map((d) => [d.code, d.column, d.message]);

const scope: RunScope = {
  inputs: { name: 'Ada', tags: ['x', 'y'] },
  steps: {
    search: {
      result_count: 2,
      results: [
        { domain: 'cedar.com', premium: false, registration_tiers: [{ price_after_taxes: 11.9 }] },
        { domain: 'cedar.io', premium: true, registration_tiers: [] },
      ],
      raw: { results: [{ id: 'g1' }] },
    },
  },
};
const render = (message: string) => renderTemplate(messageOf(message), scope);

describe('templates: allowed constructs', () => {
  it('renders paths, helpers and blocks', () => {
    expect(render('{{steps.search.result_count}} for {{inputs.name}}')).toBe('2 for Ada');
    expect(
      render(
        '{{len steps.search.results}} {{json steps.search.raw}} {{default steps.search.results.5.domain "none"}}',
      ),
    ).toBe('2 {"results":[{"id":"g1"}]} none');
    expect(
      render(
        '{{#each steps.search.results}}{{@index}}:{{this.domain}}{{#if premium}}*{{/if}}{{#unless @last}}, {{/unless}}{{/each}}',
      ),
    ).toBe('0:cedar.com, 1:cedar.io*');
    expect(
      render(
        '{{#if steps.search.result_count}}yes{{else}}no{{/if}} {{#each inputs.tags}}[{{this}}]{{else}}empty{{/each}}',
      ),
    ).toBe('yes [x][y]');
    expect(
      render('{{!-- note --}}{{{steps.search.results.0.domain}}} {{#if (len inputs.tags)}}n{{/if}}'),
    ).toBe('cedar.com n');
  });

  it('checks paths inside #each against the element schema', () => {
    expect(errorsOf('{{#each steps.search.results}}{{this.nope}}{{/each}}')).toEqual([
      [
        'UNKNOWN_OUTPUT_FIELD',
        49,
        'The #each element has no field at segment 1 after this; at that point it is an object with fields domain, domain_unicode, availability, premium, reserved, corporate, restrictions, currency, registration_tiers, renewal_tiers, taxes, pricing_status, checked_at, url, group_id, group_index.',
      ],
    ]);
  });

  it('rejects #each over something that is not a list', () => {
    expect(errorsOf('{{#each steps.search.result_count}}x{{/each}}')).toEqual([
      ['NOT_A_LIST', 25, '#each needs a list, but this reference does not yield one.'],
    ]);
  });
});

describe('templates: nesting depth', () => {
  const nested = (depth: number) => '{{#each inputs.tags}}'.repeat(depth) + 'x' + '{{/each}}'.repeat(depth);

  it('allows #each three deep', () => {
    expect(render(nested(3))).toBe('xxxxxxxx');
  });

  it('rejects a fourth level with TOO_LARGE at the innermost #each', () => {
    // The template starts in column 17; each opening block is 21 characters long.
    expect(errorsOf(nested(4))).toEqual([['TOO_LARGE', 17 + 3 * 21, '#each may be nested at most 3 deep.']]);
  });
});

describe('templates: the sandbox', () => {
  it.each([
    ['{{> partial}}', 'TEMPLATE_NOT_ALLOWED', 'Partials are not allowed in templates.'],
    ['{{#> layout}}x{{/layout}}', 'TEMPLATE_NOT_ALLOWED', 'Partials are not allowed in templates.'],
    ['{{* decorator}}', 'TEMPLATE_NOT_ALLOWED', 'Decorators are not allowed in templates.'],
    ['{{{{raw}}}}{{x}}{{{{/raw}}}}', 'TEMPLATE_NOT_ALLOWED', 'Raw blocks ({{{{...}}}}) are not allowed.'],
    [
      '{{#each steps.search.results}}{{../x}}{{/each}}',
      'TEMPLATE_NOT_ALLOWED',
      'Parent paths (../) are not allowed.',
    ],
    [
      '{{@root.inputs}}',
      'TEMPLATE_NOT_ALLOWED',
      'This @ variable is not allowed; only @index, @first and @last are.',
    ],
    [
      '{{lookup steps.search "x"}}',
      'UNKNOWN_HELPER',
      'Unknown helper; the helpers are len, json and default.',
    ],
    [
      '{{#with steps.search}}x{{/with}}',
      'UNKNOWN_HELPER',
      'Unknown block helper; use #if, #unless or #each.',
    ],
    [
      '{{json steps.search.raw indent=2}}',
      'TEMPLATE_NOT_ALLOWED',
      'Hash arguments (key=value) are not allowed.',
    ],
    [
      '{{#each inputs.tags as |t|}}{{t}}{{/each}}',
      'TEMPLATE_NOT_ALLOWED',
      '#each takes no hash arguments or block parameters.',
    ],
    ['{{len}}', 'TEMPLATE_NOT_ALLOWED', 'Helper "len" takes 1 argument(s).'],
    ['{{"literal"}}', 'TEMPLATE_NOT_ALLOWED', 'A mustache must hold a path or a helper call, not a literal.'],
    ['{{constructor}}', 'FORBIDDEN_PROPERTY', 'The reference touches the forbidden property constructor.'],
    [
      '{{name}}',
      'INVALID_REFERENCE',
      'This path is not a reference; use steps.<id>.<field> or inputs.<name>.',
    ],
    ['{{@index}}', 'INVALID_REFERENCE', '@index is only available inside #each.'],
    ['{{this}}', 'INVALID_REFERENCE', 'this is only available inside #each.'],
  ])('rejects %s', (template, code, message) => {
    expect(errorsOf(template)).toEqual([[code, expect.any(Number), message]]);
  });

  it('reports template syntax errors on the template line', () => {
    expect(diagnosticsOf(source('{{#if inputs.name}}open'))).toMatchObject([
      { code: 'TEMPLATE_SYNTAX', path: 'steps[1].send_chat_message.message', line: 16, column: 17 },
    ]);
  });

  it('escapes nothing: the output is chat text, not HTML', () => {
    const plan = planOf(source('{{inputs.name}}'));
    const html = renderTemplate((plan.steps[1] as ChatPlanStep).message, {
      inputs: { name: '<b>&"' },
      steps: {},
    });
    expect(html).toBe('<b>&"');
  });
});

describe('templates: numeric path segments', () => {
  const META = `${INPUTS}\n      meta: { type: object }`;
  const metaSource = (message: string) =>
    withSteps(`  - id: notify\n    send_chat_message:\n      title: t\n      message: '${message}'\n`, META);
  const key20 = '12345678901234567890';
  const metaScope: RunScope = {
    inputs: {
      tags: ['x', 'y'],
      meta: { '1': 'one', '01': 'zero-one', [key20]: 'twenty', list: [['a', 'b']] },
    },
    steps: {},
  };
  const renderMeta = (message: string) =>
    renderTemplate((planOf(metaSource(message)).steps[0] as ChatPlanStep).message, metaScope);

  it('reads .0 at the end of a path, as an argument of default and as the list of #each', () => {
    expect(render('{{inputs.tags.0}}|{{inputs.tags.1}}|{{inputs.tags.2}}')).toBe('x|y|');
    expect(render('{{default inputs.tags.0 "none"}} {{default inputs.tags.5 "none"}}')).toBe('x none');
    expect(render('{{#if (len inputs.tags.0)}}one{{/if}}{{#each inputs.tags.0}}a{{else}}b{{/each}}')).toBe(
      'oneb',
    );
    expect(renderMeta('{{#each inputs.meta.list.0}}{{this}}{{/each}} {{inputs.meta.list.0.1}}')).toBe('ab b');
  });

  it('keeps the spelling of numeric keys: [01] reads key 01 and a 20-digit key reads that key', () => {
    expect(
      renderMeta(`{{inputs.meta.[01]}}|{{inputs.meta.[1]}}|{{inputs.meta.1}}|{{inputs.meta.${key20}}}`),
    ).toBe('zero-one|one|one|twenty');
    expect(renderMeta(`{{inputs.meta.[${key20}]}}|{{inputs.tags.[1]}}`)).toBe('twenty|y');
    // `01` is not how an index is written, so it names a field, and a list has none.
    expect(diagnosticsOf(metaSource('{{inputs.tags.[01]}}')).map((d) => [d.code, d.column])).toEqual([
      ['UNKNOWN_INPUT', 17 + 2],
    ]);
  });

  it('points diagnostics past a rewritten segment at the source column', () => {
    // `{{inputs.tags.0}}` is 17 characters; the template starts in column 17.
    expect(errorsOf('{{inputs.tags.0}}{{steps.ghost.x}}')).toEqual([
      ['UNKNOWN_STEP', 17 + 17 + 2, 'The reference names a step that does not exist.'],
    ]);
  });

  it('refuses a number literal that JavaScript cannot hold exactly, with its position', () => {
    const huge = '9'.repeat(400);
    expect(diagnosticsOf(source(`{{default inputs.name ${huge}}}`))).toEqual([
      {
        code: 'INVALID_VALUE',
        path: 'steps[1].send_chat_message.message',
        line: 16,
        column: 17 + 22,
        message: 'A number literal must lie between -9007199254740991 and 9007199254740991.',
      },
    ]);
    expect(errorsOf('{{default inputs.name 12345678901234567890}}')).toEqual([
      ['INVALID_VALUE', 39, 'A number literal must lie between -9007199254740991 and 9007199254740991.'],
    ]);
    const missing = 'steps.search.results.5.domain';
    expect(render(`{{default ${missing} 9007199254740991}} {{default ${missing} -2.50}}`)).toBe(
      '9007199254740991 -2.5',
    );
  });
});
