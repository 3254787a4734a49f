import { describe, expect, it } from 'vitest';
import { parseJson } from './parse-json.js';
import { parseYaml } from './parse-yaml.js';

describe('parseJson', () => {
  it('parses JSON and records positions', () => {
    const source = '{\n  "title": "t",\n  "steps": [ { "id": "a" } ]\n}';
    const result = parseJson(source);
    expect(result.value).toEqual({ title: 't', steps: [{ id: 'a' }] });
    expect(result.map.diagnostic('INVALID_VALUE', 'x', ['steps', 0, 'id'])).toMatchObject({
      line: 3,
      column: 22,
    });
    expect(result.map.diagnostic('UNKNOWN_FIELD', 'x', ['steps', 0, 'id'], { key: true })).toMatchObject({
      column: 16,
    });
  });

  it('reports a syntax error at its line and column', () => {
    const result = parseJson('{\n  "title": "t",\n  "steps": [1, 2,]\n}');
    expect(result.fatal).toBe(true);
    expect(result.diagnostics).toEqual([
      {
        code: 'JSON_SYNTAX',
        message: 'Unexpected character; expected a value.',
        path: '',
        line: 3,
        column: 18,
      },
    ]);
  });

  it('reports an unterminated document at its end', () => {
    expect(parseJson('{"title": "t"').diagnostics).toMatchObject([
      { code: 'JSON_SYNTAX', line: 1, column: 14 },
    ]);
  });

  it('reports duplicate keys without stopping', () => {
    const result = parseJson('{"a": 1,\n "a": 2}');
    expect(result.fatal).toBe(false);
    expect(result.value).toEqual({ a: 1 });
    expect(result.diagnostics).toEqual([
      {
        code: 'DUPLICATE_KEY',
        message: 'Duplicate key: a key may appear only once in a mapping.',
        path: 'a',
        line: 2,
        column: 2,
      },
    ]);
  });

  it('decodes escapes and rejects comments and trailing content', () => {
    expect(parseJson('"a\\u0041\\n"').value).toBe('aA\n');
    expect(parseJson('{"a": 1} // no').diagnostics[0]).toMatchObject({ code: 'JSON_SYNTAX', column: 10 });
    expect(parseJson("{'a': 1}").diagnostics[0]).toMatchObject({ code: 'JSON_SYNTAX', column: 2 });
  });

  it('limits nesting depth', () => {
    expect(parseJson('['.repeat(40) + ']'.repeat(40)).diagnostics).toEqual([
      { code: 'TOO_LARGE', message: 'Nesting is deeper than 32 levels.', path: '', line: 1, column: 34 },
    ]);
  });

  it('has the nesting limit of the YAML front end', () => {
    const flow = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(parseJson(`{"x": ${flow(32)}}`).diagnostics).toEqual([]);
    expect(parseYaml(`x: ${flow(32)}`).diagnostics).toEqual([]);
    const tooDeep = { code: 'TOO_LARGE', message: 'Nesting is deeper than 32 levels.', path: '', line: 1 };
    expect(parseJson(`{"x": ${flow(33)}}`).diagnostics).toEqual([{ ...tooDeep, column: 39 }]);
    expect(parseYaml(`x: ${flow(33)}`).diagnostics).toEqual([{ ...tooDeep, column: 36 }]);
  });
});
