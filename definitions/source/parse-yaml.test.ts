import { describe, expect, it } from 'vitest';
import { diagnosticsOf } from '../testing/compile.js';
import { parseYaml } from './parse-yaml.js';

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

  it('limits nesting depth', () => {
    const deep = `title: t\nx: ${'['.repeat(40)}${']'.repeat(40)}\n`;
    expect(parseYaml(deep).diagnostics).toMatchObject([{ code: 'TOO_LARGE', line: 2 }]);
  });

  it('reports a second document as a syntax error', () => {
    expect(parseYaml('a: 1\n---\nb: 2\n').diagnostics).toMatchObject([
      { code: 'YAML_SYNTAX', line: 2, column: 1 },
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
