import { describe, expect, it } from 'vitest';
import { lexTemplate } from './template-lexer.js';
import { T } from './template-tokens.js';

/** Tokens as `[type, text, line, column]`. */
const tokensOf = (text: string) => lexTemplate(text).tokens.map((t) => [t.type, t.text, t.line, t.column]);

describe('the template lexer', () => {
  it('reads text, mustaches and whitespace control', () => {
    expect(tokensOf('Hi {{~ inputs.name ~}}!')).toEqual([
      [T.CONTENT, 'Hi ', 1, 0],
      [T.OPEN, '{{~', 1, 3],
      [T.ID, 'inputs', 1, 7],
      [T.SEP, '.', 1, 13],
      [T.ID, 'name', 1, 14],
      [T.CLOSE, '~}}', 1, 19],
      [T.CONTENT, '!', 1, 22],
      [T.EOF, '', 1, 23],
    ]);
  });

  it('escapes a mustache with a backslash, and keeps one of two backslashes', () => {
    expect(tokensOf('a\\{{x}}b')).toEqual([
      [T.CONTENT, 'a', 1, 0],
      [T.CONTENT, '{{x}}b', 1, 2],
      [T.EOF, '', 1, 8],
    ]);
    expect(tokensOf('a\\\\{{x}}')).toEqual([
      [T.CONTENT, 'a\\', 1, 0],
      [T.OPEN, '{{', 1, 3],
      [T.ID, 'x', 1, 5],
      [T.CLOSE, '}}', 1, 6],
      [T.EOF, '', 1, 8],
    ]);
  });

  it('reads comments whole: {{! }} to the first }}, {{!-- --}} to the first --}}', () => {
    expect(tokensOf('{{! a }}{{!-- b }} c --}}')).toEqual([
      [T.COMMENT, '{{! a }}', 1, 0],
      [T.COMMENT, '{{!-- b }} c --}}', 1, 8],
      [T.EOF, '', 1, 25],
    ]);
    expect(lexTemplate('{{!-- never closed }}')).toEqual({ tokens: [], lexicalErrorLine: 1 });
  });

  it('reads the block tags, else and its chains', () => {
    expect(tokensOf('{{#if a}}{{else}}{{^}}{{ else if b}}{{^c}}{{/if}}').map(([type]) => type)).toEqual([
      T.OPEN_BLOCK,
      T.ID,
      T.ID,
      T.CLOSE,
      T.INVERSE,
      T.INVERSE,
      T.OPEN_INVERSE_CHAIN,
      T.ID,
      T.ID,
      T.CLOSE,
      T.OPEN_INVERSE,
      T.ID,
      T.CLOSE,
      T.OPEN_ENDBLOCK,
      T.ID,
      T.CLOSE,
      T.EOF,
    ]);
  });

  it('ends a string at its first unescaped quote, or else at the last quote of the text', () => {
    expect(tokensOf('{{x "a\\"b" \'c\'}}').slice(2, 4)).toEqual([
      [T.STRING, 'a"b', 1, 4],
      [T.STRING, 'c', 1, 11],
    ]);
    expect(tokensOf('{{x "a\\"}} y').slice(2)).toEqual([
      [T.STRING, 'a\\', 1, 4],
      [T.CLOSE, '}}', 1, 8],
      [T.CONTENT, ' y', 1, 10],
      [T.EOF, '', 1, 12],
    ]);
    expect(tokensOf('{{x "a}}').slice(2, 3)).toEqual([[T.INVALID, '"', 1, 4]]);
  });

  it('reads literals only before a character a literal may precede', () => {
    expect(tokensOf('{{f true null -1.5 12 x-1 true.x}}').slice(1, -2)).toEqual([
      [T.ID, 'f', 1, 2],
      [T.BOOLEAN, 'true', 1, 4],
      [T.NULL, 'null', 1, 9],
      [T.NUMBER, '-1.5', 1, 14],
      [T.NUMBER, '12', 1, 19],
      [T.ID, 'x-1', 1, 22],
      [T.ID, 'true', 1, 26],
      [T.SEP, '.', 1, 30],
      [T.ID, 'x', 1, 31],
    ]);
  });

  it('brackets a digit segment after a separator, as a path segment', () => {
    expect(tokensOf('{{a.0}}{{b.1.2}}{{c/ 3}}').filter(([type]) => type === T.ID)).toEqual([
      [T.ID, 'a', 1, 2],
      [T.ID, '[0]', 1, 4],
      [T.ID, 'b', 1, 9],
      [T.ID, '[1]', 1, 11],
      [T.ID, '[2]', 1, 13],
      [T.ID, 'c', 1, 18],
      [T.ID, '[3]', 1, 21],
    ]);
    // `a. 0`: a dot before a space is the name `.`, not a separator.
    expect(tokensOf('{{a. 0}}').map(([type]) => type)).toEqual([
      T.OPEN,
      T.ID,
      T.ID,
      T.NUMBER,
      T.CLOSE,
      T.EOF,
    ]);
    // Where the text does not lex, nothing is rewritten.
    expect(lexTemplate('{{a.0}}{{!--').tokens.map((t) => t.type)).toEqual([
      T.OPEN,
      T.ID,
      T.SEP,
      T.NUMBER,
      T.CLOSE,
    ]);
  });

  it('counts lines and columns as the generated lexer does', () => {
    expect(tokensOf('a\r\nb\rc\n{{x}}')).toEqual([
      [T.CONTENT, 'a\r\nb\rc\n', 1, 0],
      [T.OPEN, '{{', 4, 0],
      [T.ID, 'x', 4, 2],
      [T.CLOSE, '}}', 4, 3],
      [T.EOF, '', 4, 5],
    ]);
    // After a token with a line break, the column stops at a \u2028 (its pattern's `.*` does).
    expect(tokensOf('\nab\u2028cd{{x}}')[1]).toEqual([T.OPEN, '{{', 2, 2]);
  });

  it('stops at a NUL outside mustaches, and after }}}} at anything but the end', () => {
    expect(lexTemplate('a\0b')).toEqual({
      tokens: [expect.objectContaining({ type: T.CONTENT, text: 'a' })],
      lexicalErrorLine: 1,
    });
    expect(lexTemplate('{{a}}}}\nb').lexicalErrorLine).toBe(1);
    expect(lexTemplate('{{a}}}}').tokens.map((t) => t.type)).toEqual([
      T.OPEN,
      T.ID,
      T.CLOSE_RAW_BLOCK,
      T.RAW_EOF,
    ]);
  });

  it('takes time linear in the text on unclosed brackets, strings and name runs', () => {
    const text = `{{${'[a "b \'c d!'.repeat(20_000)}}}`;
    const tokens = lexTemplate(text).tokens;
    expect(tokens.length).toBeGreaterThan(50_000);
    expect(tokens.at(-1)?.type).toBe(T.EOF);
  });
});
