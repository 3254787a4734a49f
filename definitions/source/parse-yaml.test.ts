import { describe, expect, it } from 'vitest';
import { diagnosticsOf } from '../testing/compile.js';
import { parseYaml } from './parse-yaml.js';
import { DUPLICATE_KEY_MESSAGE } from './parsed-source.js';

describe('parseYaml', () => {
  it('reports a duplicate key with its path and the position of the second key', () => {
    const source = 'title: t\nsteps:\n- id: a\n  id: b\n';
    expect(parseYaml(source).diagnostics).toEqual([
      {
        code: 'DUPLICATE_KEY',
        message: 'Duplicate key: a key may appear only once in a mapping.',
        path: 'steps[0].id',
        line: 4,
        column: 3,
      },
    ]);
  });

  it('rejects anchors and aliases at their nodes', () => {
    const source = 'a: &x 1\nb: *x\n';
    const { diagnostics } = parseYaml(source);
    expect(diagnostics.map((d) => [d.code, d.path, d.line, d.column])).toEqual([
      ['ALIAS_NOT_ALLOWED', 'a', 1, 4],
      ['ALIAS_NOT_ALLOWED', 'b', 2, 4],
    ]);
  });

  it('rejects explicit tags', () => {
    const { diagnostics } = parseYaml('a: !!str 3\nb: !custom x\n');
    expect(diagnostics.map((d) => [d.code, d.path, d.line, d.column])).toEqual([
      ['TAG_NOT_ALLOWED', 'a', 1, 4],
      ['TAG_NOT_ALLOWED', 'b', 2, 4],
    ]);
  });

  it('reports syntax errors with their position and stops there', () => {
    const result = parseYaml('title: t\nsteps: [a, b\nx: "unterminated\n');
    expect(result.fatal).toBe(true);
    expect(result.diagnostics[0]).toMatchObject({ code: 'YAML_SYNTAX', line: 3, column: 1 });
  });

  it('rejects complex keys', () => {
    expect(parseYaml('? [a]\n: 1\n').diagnostics).toMatchObject([
      { code: 'YAML_SYNTAX', line: 1, column: 3 },
    ]);
  });

  it('keeps __proto__ as an own key instead of changing the prototype', () => {
    const { value } = parseYaml('__proto__: { polluted: true }\n');
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value as object)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('stops at the first flow bracket deeper than the nesting limit, before parsing', () => {
    const deep = `title: t\nx: ${'['.repeat(40)}${']'.repeat(40)}\n`;
    expect(parseYaml(deep)).toMatchObject({ value: undefined, fatal: true });
    expect(parseYaml(deep).diagnostics).toEqual([
      { code: 'TOO_LARGE', message: 'Nesting is deeper than 32 levels.', path: '', line: 2, column: 36 },
    ]);
  });

  it('counts block nesting and flow brackets together towards the nesting limit', () => {
    const flow = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(parseYaml(`x:\n- ${flow(31)}\n`).diagnostics).toEqual([]);
    expect(parseYaml(`x:\n- ${flow(32)}\n`).diagnostics).toEqual([
      {
        code: 'TOO_LARGE',
        message: 'Nesting is deeper than 32 levels.',
        path: `x${'[0]'.repeat(32)}`,
        line: 2,
        column: 34,
      },
    ]);
  });

  it('limits the number of tokens, counted before they are parsed', () => {
    // `x:` and its line break are 3 tokens, each `- 1` line 4: 16,383 tokens, then a comment.
    const atLimit = `x:\n${'- 1\n'.repeat(4095)}# c`;
    expect(parseYaml(atLimit).diagnostics).toEqual([]);
    expect(parseYaml(`${atLimit}\n`)).toMatchObject({ value: undefined, fatal: true });
    expect(parseYaml(`${atLimit}\n`).diagnostics).toEqual([
      {
        code: 'TOO_LARGE',
        message:
          'The YAML has more than 16384 tokens (line breaks, indentation, indicators, values, comments; one inside [ ] or { } counts twice); the limit is 16384.',
        path: '',
        line: 4097,
        column: 4,
      },
    ]);
  });

  it('counts a token inside a flow collection twice', () => {
    // Each `1,` is 2 tokens, 4 inside the brackets: 5,000 of them would be 10,000 tokens in a
    // block list, and pass the limit near the 4,096th here; 3,000 stay within it.
    expect(parseYaml(`x: [${'1,'.repeat(3000)}1]\n`).diagnostics).toEqual([]);
    expect(parseYaml(`x: [${'1,'.repeat(5000)}1]\n`).diagnostics).toEqual([
      {
        code: 'TOO_LARGE',
        message:
          'The YAML has more than 16384 tokens (line breaks, indentation, indicators, values, comments; one inside [ ] or { } counts twice); the limit is 16384.',
        path: '',
        line: 1,
        column: 8195,
      },
    ]);
  });

  it('diagnoses 100 anchors and aliases one by one, and stops at the next one', () => {
    // Line 1 holds one anchor, each later line one alias: 100 in all, then the 101st on line 101.
    const hundred = `a0: &x 1\n${Array.from({ length: 99 }, (_, i) => `a${i + 1}: *x\n`).join('')}`;
    const { diagnostics } = parseYaml(hundred);
    expect(diagnostics).toHaveLength(100);
    expect(diagnostics[99]).toEqual({
      code: 'ALIAS_NOT_ALLOWED',
      message: 'Aliases (*name) are not allowed; write the value out.',
      path: 'a99',
      line: 100,
      column: 6,
    });
    expect(parseYaml(`${hundred}b: *x\n`)).toMatchObject({ value: undefined, fatal: true });
    expect(parseYaml(`${hundred}b: *x\n`).diagnostics).toEqual([
      {
        code: 'ALIAS_NOT_ALLOWED',
        message: 'The YAML has more than 100 anchors and aliases (&name, *name); none are allowed.',
        path: '',
        line: 101,
        column: 4,
      },
    ]);
  });

  it('counts no anchor or alias inside text', () => {
    const text = Array.from({ length: 150 }, () => '*x &y [').join('\n  ');
    const source = `a: |\n  ${text}\nb: '*x &y ['\nc: "*x"\n`;
    expect(parseYaml(source)).toMatchObject({ fatal: false, diagnostics: [] });
    expect((parseYaml(source).value as { a: string }).a).toBe(`${text.replaceAll('\n  ', '\n')}\n`);
  });

  it('reports many duplicate keys of one mapping each at its own line', () => {
    const source = `a: 0\n${Array.from({ length: 3000 }, (_, i) => `k${i}: 1\n`).join('')}a: 1\nk2999: 2\n`;
    expect(parseYaml(source).diagnostics).toEqual([
      { code: 'DUPLICATE_KEY', message: DUPLICATE_KEY_MESSAGE, path: 'a', line: 3002, column: 1 },
      { code: 'DUPLICATE_KEY', message: DUPLICATE_KEY_MESSAGE, path: 'k2999', line: 3003, column: 1 },
    ]);
  });

  it('reports a second document as a syntax error', () => {
    expect(parseYaml('a: 1\n---\nb: 2\n').diagnostics).toEqual([
      { code: 'YAML_SYNTAX', message: 'A definition is one YAML document.', path: '', line: 2, column: 1 },
    ]);
  });
});

describe('structural validation positions', () => {
  it('points unknown fields at their key and wrong types at their value', () => {
    const source = [
      'title: t',
      'start_when:',
      '  manual: {}',
      'steps:',
      '  - id: search',
      '    use_app_skill: hosting.search_domains',
      '    colour: red',
      '    continue_on_error: "yes"',
      '    input: { requests: [{ query: cedar }] }',
    ].join('\n');
    expect(diagnosticsOf(source)).toEqual([
      {
        code: 'UNKNOWN_FIELD',
        message: 'Unknown field: it is not defined here.',
        path: 'steps[0].colour',
        line: 7,
        column: 5,
      },
      {
        code: 'INVALID_TYPE',
        message: 'Invalid input: expected boolean, received string',
        path: 'steps[0].continue_on_error',
        line: 8,
        column: 24,
      },
    ]);
  });

  it('points a missing field at the object that lacks it', () => {
    const source = 'start_when:\n  manual: {}\nsteps:\n  - use_app_skill: hosting.search_domains\n';
    expect(diagnosticsOf(source).map((d) => [d.code, d.path, d.line, d.column, d.message])).toEqual([
      ['MISSING_FIELD', '', 1, 1, 'Missing required field "title".'],
      ['MISSING_FIELD', 'steps[0]', 4, 5, 'Missing required field "id".'],
    ]);
  });
});
