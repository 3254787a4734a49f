/**
 * Differential test of the template parser: for every template, compiling with our lexer and
 * parser and compiling with Handlebars' own give the same plan nodes and the same diagnostics
 * (codes, messages, positions). The oracle is Handlebars' generated lexer and parser with the
 * digit-segment rewrite done on its tokens; where the template has no digit segment to rewrite,
 * also `Handlebars.parse` itself, the compiler's former parser. Templates are random mixes of
 * the language's pieces, valid templates with random whitespace control and line breaks, and
 * the 319 templates of the Handlebars corpus.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Diagnostic } from '../diagnostics.js';
import { announce, fuzzParams } from '../fuzz/fuzz-run.js';
import type { SchemaShape } from '../schema/schema-path.js';
import { SourceMap } from '../source/source-map.js';
import { parseWithHandlebars, parseWithHandlebarsTokens } from '../testing/handlebars-parse.js';
import { bracketNumericSegments } from '../testing/numeric-segments.js';
import { generateTemplates, HAND_WRITTEN } from '../testing/template-corpus.js';
import { compileTemplate } from './compile-template.js';
import { parseTemplate, type TemplateParser } from './parse-template.js';

const LIST: SchemaShape = [z.array(z.object({ name: z.string() }))];

/** Compiles `text` as the message of the second step (`a` before it; inputs `x`, `list`). */
function compileWith(parse: TemplateParser, text: string) {
  const map = new SourceMap(text);
  map.set(['message'], { start: 0, offsets: Array.from({ length: text.length + 1 }, (_, i) => i) });
  const diagnostics: Diagnostic[] = [];
  const scope = {
    map,
    diagnostics,
    steps: new Map([
      ['a', { position: [{ container: '', kind: 'top' as const, index: 0 }], output: 'any' as const }],
      ['b', { position: [{ container: '', kind: 'top' as const, index: 1 }], output: 'any' as const }],
    ]),
    position: [{ container: '', kind: 'top' as const, index: 1 }],
    inputs: new Map<string, SchemaShape>([
      ['x', 'any'],
      ['list', LIST],
    ]),
    scheduled: false,
  };
  const nodes = compileTemplate(text, scope, { path: ['message'], offset: 0 }, parse);
  return { nodes, diagnostics };
}

/** How many templates were compared, and how many also with `Handlebars.parse` itself. */
const compared = { all: 0, withParse: 0, compiled: 0 };

function expectSame(text: string): void {
  const ours = { text, ...compileWith(parseTemplate, text) };
  expect(ours).toEqual({ text, ...compileWith(parseWithHandlebarsTokens, text) });
  compared.all += 1;
  if (ours.diagnostics.length === 0) compared.compiled += 1;
  if (bracketNumericSegments(text).text !== text) return;
  expect(ours).toEqual({ text, ...compileWith(parseWithHandlebars, text) });
  compared.withParse += 1;
}

/** Pieces of templates, valid and not. */
const PIECES = [
  '{{',
  '}}',
  '{{{',
  '}}}',
  '}}}}',
  '{{~',
  '~}}',
  '~',
  '{{!',
  '{{!--',
  '--}}',
  '{{!-- x --}}',
  '{{! c }}',
  '{{#if ',
  '{{#unless ',
  '{{#each ',
  '{{/if}}',
  '{{/each}}',
  '{{/unless}}',
  '{{else}}',
  '{{^}}',
  '{{else if ',
  '{{ else }}',
  '{{^if ',
  '{{#',
  '{{/',
  '{{>',
  '{{#>',
  '{{*',
  '{{#*',
  '{{&',
  '#',
  '/',
  '^',
  'else',
  'if',
  'each',
  'inputs.x',
  'inputs.list',
  'steps.a',
  'steps.a.b',
  'steps.b.c',
  'this',
  'this.y',
  '@index',
  '@first',
  '@root',
  '.',
  '..',
  '../',
  './',
  '.0',
  '.12',
  '.1.2',
  '/0',
  '[0]',
  '[a b]',
  '[',
  ']',
  'len ',
  'json ',
  'default ',
  '"s"',
  "'q'",
  '"',
  "'",
  '\\"',
  '\\',
  '\\\\',
  '(',
  ')',
  '=',
  'k=',
  '|',
  'as |y|',
  '0',
  '-1',
  '1.5',
  '12345678901234567890',
  'true',
  'false',
  'null',
  'undefined',
  ' ',
  '  ',
  '\n',
  '\r\n',
  '\r',
  '\t',
  '\u2028',
  '\u00a0',
  'x',
  'text ',
  '}',
  '{',
  '@',
  '*',
  '&',
  '>',
  '!',
  '\0',
];

const soup = fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }).map((pieces) => pieces.join(''));

/** Valid templates, with random tildes, spaces and line breaks around their tags. */
const space = fc.constantFrom('', '', ' ', '\n', '  \n', '\r\n', ' \n ', '\n\n');
const tilde = fc.constantFrom('', '', '~');
const reference = fc.constantFrom(
  'inputs.x',
  'inputs.list',
  'steps.a.b',
  'steps.a.0',
  'inputs.x.1.2',
  'this',
  '@index',
  'y',
);
const tag = (inner: fc.Arbitrary<string>) =>
  fc
    .tuple(space, tilde, inner, tilde, space)
    .map(([before, open, body, close, after]) => `${before}{{${open}${body}${close}}}${after}`);
const valid: fc.Arbitrary<string> = fc.letrec<{ template: string; part: string }>((tie) => ({
  template: fc.array(tie('part'), { maxLength: 4 }).map((parts) => parts.join('')),
  part: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom('text', ' ', '\n', 'a\\{{x}}', '\\\\'),
    tag(reference),
    tag(fc.constantFrom('! note ', '!-- note --')),
    tag(reference.map((r) => `len ${r}`)),
    tag(reference.map((r) => `default ${r} "none"`)),
    fc
      .tuple(fc.constantFrom('if', 'unless', 'each'), reference, tie('template'), fc.option(tie('template')))
      .chain(([name, ref, body, otherwise]) =>
        fc
          .tuple(tag(fc.constant(`#${name} ${ref}`)), tag(fc.constant('else')), tag(fc.constant(`/${name}`)))
          .map(
            ([open, other, close]) => `${open}${body}${otherwise === null ? '' : other + otherwise}${close}`,
          ),
      ),
  ),
})).template;

describe('the template parser gives what Handlebars gives', () => {
  announce('parse-template');

  it('for random mixes of template pieces', () => {
    fc.assert(
      fc.property(soup, (text) => {
        expectSame(text);
      }),
      fuzzParams(4000),
    );
  });

  it('for valid templates with whitespace control and standalone lines', () => {
    fc.assert(
      fc.property(valid, (text) => {
        expectSame(text);
      }),
      fuzzParams(2000),
    );
  });

  it('for valid templates with one piece inserted', () => {
    const mutated = fc
      .tuple(valid, fc.constantFrom(...PIECES), fc.nat())
      .map(
        ([text, piece, at]) =>
          text.slice(0, at % (text.length + 1)) + piece + text.slice(at % (text.length + 1)),
      );
    fc.assert(
      fc.property(mutated, (text) => {
        expectSame(text);
      }),
      fuzzParams(2000),
    );
  });

  it('for the Handlebars differential corpus', () => {
    const corpus = [...HAND_WRITTEN.map(([t]) => t), ...generateTemplates(20_261, 240)];
    expect(corpus).toHaveLength(319);
    for (const text of corpus) expectSame(text);
  });

  it('compared thousands of templates, valid and not, most of them with Handlebars.parse too', () => {
    console.info(`parse-template: ${JSON.stringify(compared)}`);
    expect(compared.all).toBeGreaterThanOrEqual(8_000);
    expect(compared.withParse).toBeGreaterThan(compared.all / 2);
    expect(compared.compiled).toBeGreaterThan(1_000);
    expect(compared.all - compared.compiled).toBeGreaterThan(1_000);
  });
});

describe('where the former parser (digit segments bracketed in the text, then Handlebars.parse) erred', () => {
  const syntax = (message: string, line = 1) => [
    {
      code: 'TEMPLATE_SYNTAX',
      message: `Template does not parse: ${message}`,
      path: 'message',
      line,
      column: 1,
    },
  ];
  const inputsList = (index: number) => ({
    kind: 'value',
    expr: { kind: 'ref', ref: { root: 'inputs', name: 'list', path: [index] } },
  });

  it('reads a digit segment after a {{!-- --}} comment (the former rewrite bracketed other text)', () => {
    const text = '{{!-- c --}}{{inputs.list.0}}';
    expect(compileWith(parseTemplate, text)).toEqual({ nodes: [inputsList(0)], diagnostics: [] });
    expect(compileWith(parseWithHandlebars, text)).toEqual({
      nodes: [],
      diagnostics: syntax("expected 'ID', got NUMBER."),
    });
  });

  it('refuses an unclosed [ even when a digit segment follows (the former rewrite closed it)', () => {
    const text = '{{steps.a.[x}} {{inputs.list.0}}';
    expect(compileWith(parseTemplate, text)).toEqual({
      nodes: [],
      diagnostics: syntax("expected 'ID', got INVALID."),
    });
    expect(compileWith(parseWithHandlebars, text).nodes).toEqual([
      {
        kind: 'value',
        expr: { kind: 'ref', ref: { root: 'steps', step: 'a', path: ['x}} {{inputs.list.[0'] } },
      },
    ]);
  });

  it('never takes words of the template into a syntax message', () => {
    const text = "{{#if inputs.x}}\rExpecting , got 'S'";
    expect(compileWith(parseTemplate, text).diagnostics).toEqual(
      syntax("expected 'OPEN_INVERSE_CHAIN', 'INVERSE', 'OPEN_ENDBLOCK', got EOF."),
    );
    expect(compileWith(parseWithHandlebars, text).diagnostics).toEqual(syntax('expected , got S.'));
  });
});

describe('the template parser, at the edges of the subset', () => {
  const nodesOf = (text: string) => compileWith(parseTemplate, text).nodes;
  const x = { kind: 'ref', ref: { root: 'inputs', name: 'x', path: [] } };

  it('strips whitespace around ~ and removes standalone block and comment lines', () => {
    expect(nodesOf('a  {{~inputs.x~}}  b')).toEqual([
      { kind: 'text', text: 'a' },
      { kind: 'value', expr: x },
      { kind: 'text', text: 'b' },
    ]);
    expect(nodesOf('{{#if inputs.x}}\n  yes\n{{else}}\n  no\n{{/if}}\n{{! note }}\nend')).toEqual([
      {
        kind: 'if',
        negate: false,
        cond: x,
        then: [{ kind: 'text', text: '  yes\n' }],
        else: [{ kind: 'text', text: '  no\n' }],
      },
      { kind: 'text', text: 'end' },
    ]);
  });

  it('reads triple-stash and & mustaches as values, and an escaped mustache as text', () => {
    expect(nodesOf('{{{inputs.x}}}{{&inputs.x}}\\{{inputs.x}}')).toEqual([
      { kind: 'value', expr: x },
      { kind: 'value', expr: x },
      { kind: 'text', text: '{{inputs.x}}' },
    ]);
  });

  it('reads {{else if}} chains and {{^if}} blocks', () => {
    expect(
      nodesOf('{{#if inputs.x}}a{{else if inputs.list}}b{{else}}c{{/if}}{{^if inputs.x}}d{{/if}}'),
    ).toEqual([
      {
        kind: 'if',
        negate: false,
        cond: x,
        then: [{ kind: 'text', text: 'a' }],
        else: [
          {
            kind: 'if',
            negate: false,
            cond: { kind: 'ref', ref: { root: 'inputs', name: 'list', path: [] } },
            then: [{ kind: 'text', text: 'b' }],
            else: [{ kind: 'text', text: 'c' }],
          },
        ],
      },
      { kind: 'if', negate: false, cond: x, then: [], else: [{ kind: 'text', text: 'd' }] },
    ]);
  });
});
