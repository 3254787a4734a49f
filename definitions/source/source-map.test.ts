import { describe, expect, it } from 'vitest';
import { SourceMap } from './source-map.js';

describe('SourceMap', () => {
  const map = new SourceMap('{\n  "a": [\n    {"b": 1}\n  ]\n}');
  map.set([], { start: 0 });
  map.set(['a'], { start: 9, keyStart: 4 });
  map.set(['a', 0], { start: 15 });
  map.set(['a', 0, 'b'], { start: 21, keyStart: 16 });

  it('finds a recorded node by its path', () => {
    expect(map.span(['a', 0, 'b'])).toEqual({ start: 21, keyStart: 16 });
    expect(map.span([])).toEqual({ start: 0 });
  });

  it('falls back to the key of the nearest recorded ancestor', () => {
    expect(map.span(['a', 0, 'b', 'c', 'd'])).toEqual({ start: 16 });
    expect(map.span(['a', 5])).toEqual({ start: 4 });
    expect(map.span(['z'])).toEqual({ start: 0 });
  });

  it('tells an index from a key that spells it', () => {
    expect(map.span(['a', '0'])).toEqual({ start: 4 });
  });

  it('places diagnostics at line and column, by key or value', () => {
    expect(map.diagnostic('INVALID_TYPE', 'm', ['a', 0, 'b'])).toEqual({
      code: 'INVALID_TYPE',
      message: 'm',
      path: 'a[0].b',
      line: 3,
      column: 11,
    });
    expect(map.diagnostic('UNKNOWN_FIELD', 'm', ['a', 0, 'b'], { key: true })).toMatchObject({
      line: 3,
      column: 6,
    });
  });

  it('finds nodes a thousand levels deep', () => {
    const deep = new SourceMap('x');
    const path: number[] = [];
    for (let i = 0; i < 1000; i++) {
      path.push(0);
      deep.set(path, { start: i });
    }
    expect(deep.span(path)).toEqual({ start: 999 });
    expect(deep.span([...path, 1])).toEqual({ start: 999 });
  });
});
