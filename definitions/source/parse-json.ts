/**
 * JSON front end. A small recursive-descent parser instead of `JSON.parse`, because we need the
 * position of every node, duplicate-key detection and syntax errors with line and column.
 */
import type { Diagnostic } from '../diagnostics.js';
import { LIMITS } from '../limits.js';
import { DUPLICATE_KEY_MESSAGE, TOO_DEEP_MESSAGE } from './parsed-source.js';
import { defineField } from '../runtime/lookup.js';
import type { ParsedSource } from './parsed-source.js';
import { type DocPath, SourceMap } from './source-map.js';

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
    readonly code: 'JSON_SYNTAX' | 'TOO_LARGE' = 'JSON_SYNTAX',
  ) {
    super(message);
  }
}

const ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Parses JSON text into plain data plus positions. */
export function parseJson(source: string): ParsedSource {
  const map = new SourceMap(source);
  const parser = new JsonParser(source, map);
  try {
    const value = parser.parseDocument();
    return { value, map, diagnostics: parser.diagnostics, fatal: false };
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    const at = map.lineColumn(err.offset);
    const diagnostic: Diagnostic = { code: err.code, message: err.message, path: '', ...at };
    return { value: undefined, map, diagnostics: [...parser.diagnostics, diagnostic], fatal: true };
  }
}

class JsonParser {
  readonly diagnostics: Diagnostic[] = [];
  private pos = 0;

  constructor(
    private readonly text: string,
    private readonly map: SourceMap,
  ) {}

  parseDocument(): unknown {
    this.skipWhitespace();
    const value = this.parseValue([], 0, undefined);
    this.skipWhitespace();
    if (this.pos < this.text.length) this.fail('Unexpected content after the JSON value.');
    return value;
  }

  private parseValue(path: DocPath, depth: number, keyStart: number | undefined): unknown {
    if (depth > LIMITS.maxDepth) {
      throw new JsonSyntaxError(TOO_DEEP_MESSAGE, this.pos, 'TOO_LARGE');
    }
    const start = this.pos;
    this.map.set(path, { start, keyStart });
    const ch = this.text[this.pos];
    if (ch === '{') return this.parseObject(path, depth);
    if (ch === '[') return this.parseArray(path, depth);
    if (ch === '"') {
      const offsets: number[] = [];
      const value = this.parseString(offsets);
      this.map.set(path, { start, keyStart, offsets });
      return value;
    }
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (match && match[0] !== '' && match[0] !== '-') {
      this.pos += match[0].length;
      return Number(match[0]);
    }
    return this.fail(
      ch === undefined
        ? 'Unexpected end of input; expected a value.'
        : 'Unexpected character; expected a value.',
    );
  }

  private parseObject(path: DocPath, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    this.parseItems('}', () => {
      if (this.text[this.pos] !== '"') this.fail('Expected a string key in double quotes.');
      const keyStart = this.pos;
      const key = this.parseString();
      this.skipWhitespace();
      this.expect(':');
      this.skipWhitespace();
      const childPath = [...path, key];
      const duplicate = seen.has(key);
      const value = this.parseValue(duplicate ? [...path, `${key}#dup`] : childPath, depth + 1, keyStart);
      if (duplicate) {
        this.map.set(childPath, { start: keyStart, keyStart });
        this.diagnostics.push(
          this.map.diagnostic('DUPLICATE_KEY', DUPLICATE_KEY_MESSAGE, childPath, { key: true }),
        );
      } else {
        seen.add(key);
        defineField(out, key, value);
      }
    });
    return out;
  }

  private parseArray(path: DocPath, depth: number): unknown[] {
    const out: unknown[] = [];
    this.parseItems(']', () => out.push(this.parseValue([...path, out.length], depth + 1, undefined)));
    return out;
  }

  /** Reads comma-separated items after an opening bracket, through the closing one. */
  private parseItems(close: string, item: () => void): void {
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === close) {
      this.pos++;
      return;
    }
    for (;;) {
      this.skipWhitespace();
      item();
      this.skipWhitespace();
      if (this.text[this.pos] !== ',') break;
      this.pos++;
    }
    this.expect(close);
  }

  /** Reads a string; `offsets` receives the source offset of each UTF-16 unit of the result. */
  private parseString(offsets: number[] = []): string {
    let out = '';
    this.pos++;
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === undefined) this.fail('Unterminated string.');
      if (ch === '"') {
        this.pos++;
        return out;
      }
      if (ch < ' ') this.fail('Control character in string; escape it.');
      offsets.push(this.pos);
      if (ch !== '\\') {
        out += ch;
        this.pos++;
        continue;
      }
      const esc = this.text[this.pos + 1] ?? '';
      if (esc === 'u' && /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.pos + 2, this.pos + 6))) {
        out += String.fromCharCode(parseInt(this.text.slice(this.pos + 2, this.pos + 6), 16));
        this.pos += 6;
      } else if (Object.hasOwn(ESCAPES, esc)) {
        out += ESCAPES[esc];
        this.pos += 2;
      } else {
        this.fail('Invalid escape sequence.');
      }
    }
  }

  private expect(ch: string): void {
    if (this.text[this.pos] !== ch) {
      this.fail(
        `Expected "${ch}" but found ${this.text[this.pos] === undefined ? 'end of input' : 'another character'}.`,
      );
    }
    this.pos++;
  }

  private skipWhitespace(): void {
    while (/[ \t\r\n]/.test(this.text[this.pos] ?? '')) this.pos++;
  }

  private fail(message: string): never {
    throw new JsonSyntaxError(message, this.pos);
  }
}
