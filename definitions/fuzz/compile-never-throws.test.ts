/**
 * The compiler never throws: for any text or bytes up to the source limit, for generated valid
 * definitions and for mutations of them, it answers either a plan or positioned diagnostics
 * whose messages quote no author text.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../limits.js';
import { compileForTest } from '../testing/compile.js';
import { createTestCatalog } from '../testing/test-catalog.js';
import { definitionArbitraries, sourceStyle, toSource } from './definition-arbitraries.js';
import { announce, expectWellFormed, fuzzParams } from './fuzz-run.js';
import { mutateText, mutateTree, textMutation, treeMutation } from './mutations.js';
import { MARKER } from './schema-arbitrary.js';

const { definition } = definitionArbitraries(createTestCatalog());
const format = fc.constantFrom('yaml' as const, 'json' as const, 'auto' as const);

/** Compiles and checks the answer; returns it for further checks. */
function compileChecked(source: string, fmt: 'yaml' | 'json' | 'auto' = 'auto') {
  const result = compileForTest(source, fmt);
  expectWellFormed(result, source);
  return result;
}

/** Pieces of YAML and JSON syntax, for text that is almost a definition. */
const TOKENS = [
  'title: ',
  'start_when:',
  '  manual: {}',
  '  schedule: { cron: "0 9 * * *", timezone: UTC }',
  'steps:',
  '  - id: ',
  '    use_app_skill: hosting.search_domains',
  '    send_chat_message: { title: qz, message: "{{steps.qz.results}}" }',
  '    input: { requests: [{ query: qz }] }',
  '{"title": "qz", "start_when": {"manual": {}}, "steps": [',
  '{"id": "qz", "send_chat_message": {"title": "qz", "message": "qz"}}',
  ']}',
  '\n',
  '  ',
  '- ',
  ': ',
  ', ',
  '{',
  '}',
  '[',
  ']',
  '"',
  "'",
  '&qz ',
  '*qz',
  '<<: ',
  '!!str ',
  '!qz ',
  '? ',
  '|\n',
  '>-\n',
  '#qz',
  '---\n',
  '%YAML 1.2\n',
  '\\u0000',
  '\t',
  'qz',
  '{{',
  '}}',
  '1e400',
  '-0',
  '0x1F',
  '.nan',
  '~',
];
const tokenSoup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 120 }).map((parts) => parts.join(''));

describe('the compiler never throws', () => {
  beforeAll(() => announce('compile-never-throws'));

  it('on arbitrary text, in every format', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 2000 }),
      fc.string({ unit: 'grapheme', maxLength: 500 }).map((s) => s.repeat(1 + (s.length % 40))),
      tokenSoup,
    );
    fc.assert(
      fc.property(text, format, (source, fmt) => {
        compileChecked(source + MARKER, fmt);
      }),
      fuzzParams(200),
    );
  });

  it('on arbitrary bytes, decoded as the API decodes a body', () => {
    const decoder = new TextDecoder('utf-8', { fatal: false });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), format, (bytes, fmt) => {
        compileChecked(decoder.decode(bytes) + MARKER, fmt);
      }),
      fuzzParams(100),
    );
  });

  it('on generated valid definitions, with the same plan from YAML and JSON', () => {
    let compiled = 0;
    fc.assert(
      fc.property(definition, fc.integer({ min: 0, max: 4 }), (data, indent) => {
        const yaml = compileChecked(toSource(data, 'yaml', indent), 'yaml');
        const json = compileChecked(toSource(data, 'json', indent), 'json');
        expect(json.ok).toBe(yaml.ok);
        if (yaml.ok && json.ok) {
          compiled += 1;
          expect(json.plan).toEqual(yaml.plan);
        } else if (!yaml.ok && !json.ok) {
          const codes = (r: typeof yaml) => (r.ok ? [] : r.diagnostics.map((d) => [d.code, d.path]).sort());
          expect(codes(json)).toEqual(codes(yaml));
        }
      }),
      fuzzParams(150),
    );
    // The generator is useful only if most of what it makes compiles.
    expect(compiled / fuzzParams(150).numRuns).toBeGreaterThan(0.5);
  });

  it('on mutated definitions (keys, types, templates, nesting, huge strings, unicode)', () => {
    fc.assert(
      fc.property(
        definition,
        fc.array(treeMutation, { minLength: 1, maxLength: 4 }),
        sourceStyle,
        (data, mutations, style) => {
          const source = toSource(mutateTree(data, mutations), style.format, style.indent);
          compileChecked(source, style.format);
        },
      ),
      fuzzParams(200),
    );
  });

  it('on mutated YAML text (anchors, aliases, merge keys, alias bombs, duplicate keys, tags)', () => {
    fc.assert(
      fc.property(definition, fc.array(textMutation, { minLength: 1, maxLength: 4 }), (data, mutations) => {
        compileChecked(mutateText(toSource(data, 'yaml'), mutations), 'yaml');
      }),
      fuzzParams(200),
    );
  });

  it('on mutated JSON text', () => {
    const jsonMutation = textMutation.filter((m) =>
      ['splice', 'cut', 'repeat', 'duplicateLine'].includes(m.kind),
    );
    fc.assert(
      fc.property(definition, fc.array(jsonMutation, { minLength: 1, maxLength: 4 }), (data, mutations) => {
        compileChecked(mutateText(toSource(data, 'json'), mutations), 'json');
      }),
      fuzzParams(100),
    );
  });

  it('answers TOO_LARGE, and nothing else, past the source limit', () => {
    fc.assert(
      fc.property(definition, format, fc.integer({ min: 1, max: 4096 }), (data, fmt, extra) => {
        const source = toSource(data, 'yaml');
        const padded = source + '#'.repeat(LIMITS.maxSourceBytes - Buffer.byteLength(source) + extra);
        const result = compileChecked(padded, fmt);
        expect(result.ok ? [] : result.diagnostics.map((d) => [d.code, d.path, d.line, d.column])).toEqual([
          ['TOO_LARGE', '', 1, 1],
        ]);
      }),
      fuzzParams(10),
    );
  });
});
