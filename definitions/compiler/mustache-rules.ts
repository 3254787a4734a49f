/**
 * The rules of the lexer inside a mustache, as Handlebars' lexer applies them: at each position
 * the first rule (in its order) that matches wins, not the longest. Each rule here is a direct
 * scan; searches that could repeat over the same text (an unclosed string or bracket, a run of
 * name characters followed by a character a name may not precede) remember their answers.
 */
import { ForwardSearch, RunEnd, unescaped } from './forward-search.js';
import { isSpace, T, type TokenType } from './template-tokens.js';

/** What one rule matched: where it ends, its token if it yields one, and the next state. */
export interface RuleMatch {
  end: number;
  type?: TokenType;
  text?: string;
  next?: 'INITIAL' | 'raw' | 'com';
}

/** Characters a name may not hold, besides whitespace. */
const NOT_NAME = new Set([...'!"#%&\'()*+,./;<=>@[\\]^`{|}~'].map((c) => c.charCodeAt(0)));
/** Characters that may follow a name. */
const AFTER_NAME = new Set([...'=~}/.)|'].map((c) => c.charCodeAt(0)));
/** Characters that may follow a literal. */
const AFTER_LITERAL = new Set([...'~})'].map((c) => c.charCodeAt(0)));
const KEYWORDS: Array<[string, TokenType]> = [
  ['true', T.BOOLEAN],
  ['false', T.BOOLEAN],
  ['undefined', T.UNDEFINED],
  ['null', T.NULL],
];

const isNameChar = (code: number) => !Number.isNaN(code) && !isSpace(code) && !NOT_NAME.has(code);
const isDigit = (code: number) => code >= 48 && code <= 57;
const isWordChar = (code: number) =>
  isDigit(code) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
const mayFollow = (set: Set<number>, code: number) => isSpace(code) || set.has(code);

export class MustacheRules {
  private readonly names: RunEnd;
  private readonly digits: RunEnd;
  private readonly spaces: RunEnd;
  private readonly closeBraces: ForwardSearch;
  private readonly quotes: Record<string, ForwardSearch>;
  /** The last index of each closing character, found once. */
  private readonly lastOf = new Map<string, number>();

  constructor(private readonly text: string) {
    this.names = new RunEnd(text, isNameChar);
    this.digits = new RunEnd(text, isDigit);
    this.spaces = new RunEnd(text, isSpace);
    this.closeBraces = new ForwardSearch((from) => text.indexOf('}}', from));
    this.quotes = { '"': unescaped(text, '"'), "'": unescaped(text, "'"), ']': unescaped(text, ']') };
  }

  /** The rule that matches at `p`, inside a mustache. */
  match(p: number): RuleMatch {
    const s = this.text;
    if (p >= s.length) return { end: p, type: T.EOF, text: '' };
    const c = s[p] as string;
    switch (c) {
      case '(':
        return this.token(p, p + 1, T.OPEN_SEXPR);
      case ')':
        return this.token(p, p + 1, T.CLOSE_SEXPR);
      case '{':
        return s.startsWith('{{', p) ? this.open(p) : this.token(p, p + 1, T.INVALID);
      case '}':
        if (s.startsWith('}}}}', p)) return this.token(p, p + 4, T.CLOSE_RAW_BLOCK, 'raw');
        if (s.startsWith('}}}', p) || s.startsWith('}~}}', p))
          return this.token(p, s[p + 1] === '~' ? p + 4 : p + 3, T.CLOSE_UNESCAPED, 'INITIAL');
        return s.startsWith('}}', p)
          ? this.token(p, p + 2, T.CLOSE, 'INITIAL')
          : this.token(p, p + 1, T.INVALID);
      case '~':
        return s.startsWith('~}}', p)
          ? this.token(p, p + 3, T.CLOSE, 'INITIAL')
          : this.token(p, p + 1, T.INVALID);
      case '=':
        return this.token(p, p + 1, T.EQUALS);
      case '.':
        if (s[p + 1] === '.') return this.token(p, p + 2, T.ID);
        return mayFollow(AFTER_NAME, s.charCodeAt(p + 1))
          ? this.token(p, p + 1, T.ID)
          : this.token(p, p + 1, T.SEP);
      case '/':
        return this.token(p, p + 1, T.SEP);
      case '"':
      case "'":
        return this.string(p, c) ?? this.token(p, p + 1, T.INVALID);
      case '@':
        return this.token(p, p + 1, T.DATA);
      case '|':
        return this.token(p, p + 1, T.CLOSE_BLOCK_PARAMS);
      case '[':
        return this.bracketName(p) ?? this.token(p, p + 1, T.INVALID);
    }
    if (isSpace(s.charCodeAt(p))) return { end: this.spaces.at(p) };
    return this.word(p) ?? this.token(p, p + 1, T.INVALID);
  }

  /** Keywords, numbers, `as |`, and names. */
  private word(p: number): RuleMatch | undefined {
    const s = this.text;
    for (const [word, type] of KEYWORDS) {
      if (s.startsWith(word, p) && mayFollow(AFTER_LITERAL, s.charCodeAt(p + word.length)))
        return { end: p + word.length, type, text: word };
    }
    const number = this.number(p);
    if (number !== undefined) return { end: number, type: T.NUMBER, text: s.slice(p, number) };
    if (s.startsWith('as', p)) {
      const bar = this.spaces.at(p + 2);
      if (bar > p + 2 && s[bar] === '|')
        return { end: bar + 1, type: T.OPEN_BLOCK_PARAMS, text: s.slice(p, bar + 1) };
    }
    const end = this.names.at(p);
    if (end > p && mayFollow(AFTER_NAME, s.charCodeAt(end)))
      return { end, type: T.ID, text: s.slice(p, end) };
    return undefined;
  }

  /** `-?[0-9]+(\.[0-9]+)?` followed by a character a literal may precede: where it ends. */
  private number(p: number): number | undefined {
    const s = this.text;
    const start = s[p] === '-' ? p + 1 : p;
    let end = this.digits.at(start);
    if (end === start) return undefined;
    if (s[end] === '.' && isDigit(s.charCodeAt(end + 1))) end = this.digits.at(end + 1);
    return mayFollow(AFTER_LITERAL, s.charCodeAt(end)) ? end : undefined;
  }

  /**
   * A quoted string. Its end is the first quote no backslash precedes; without one, the
   * pattern's backtracking ends it at the last quote of the text.
   */
  private string(p: number, quote: '"' | "'"): RuleMatch | undefined {
    const end = this.closing(p, quote);
    if (end === undefined) return undefined;
    const body = this.text.slice(p + 1, end - 1);
    return { end, type: T.STRING, text: body.replace(quote === '"' ? /\\"/g : /\\'/g, quote) };
  }

  /** A name in brackets (`[0]`, `[a b]`), kept with its brackets, `\]` and `\\` unescaped. */
  private bracketName(p: number): RuleMatch | undefined {
    const end = this.closing(p, ']');
    if (end === undefined) return undefined;
    return { end, type: T.ID, text: this.text.slice(p, end).replace(/\\([\\\]])/g, '$1') };
  }

  /** Where a string or bracket opened at `p` ends (just after its closing character). */
  private closing(p: number, close: string): number | undefined {
    const first = (this.quotes[close] as ForwardSearch).next(p + 1);
    if (first >= 0) return first + 1;
    let last = this.lastOf.get(close);
    if (last === undefined) {
      last = this.text.lastIndexOf(close);
      this.lastOf.set(close, last);
    }
    return last > p ? last + 1 : undefined;
  }

  /** The rules for text starting with `{{`. */
  private open(p: number): RuleMatch {
    const s = this.text;
    if (s.startsWith('{{{{', p)) return this.token(p, p + 4, T.OPEN_RAW_BLOCK);
    const q = s[p + 2] === '~' ? p + 3 : p + 2;
    const c = s[q];
    if (c === '>') return this.token(p, q + 1, T.OPEN_PARTIAL);
    if (c === '#') {
      if (s[q + 1] === '>') return this.token(p, q + 2, T.OPEN_PARTIAL_BLOCK);
      return this.token(p, s[q + 1] === '*' ? q + 2 : q + 1, T.OPEN_BLOCK);
    }
    if (c === '/') return this.token(p, q + 1, T.OPEN_ENDBLOCK);
    if (c === '^') {
      const close = this.closeAt(this.spaces.at(q + 1));
      return close > 0 ? this.token(p, close, T.INVERSE, 'INITIAL') : this.token(p, q + 1, T.OPEN_INVERSE);
    }
    const word = this.spaces.at(q);
    if (s.startsWith('else', word)) {
      const close = this.closeAt(this.spaces.at(word + 4));
      if (close > 0) return this.token(p, close, T.INVERSE, 'INITIAL');
      if (!isWordChar(s.charCodeAt(word + 4))) return this.token(p, word + 4, T.OPEN_INVERSE_CHAIN);
    }
    if (c === '{') return this.token(p, q + 1, T.OPEN_UNESCAPED);
    if (c === '&') return this.token(p, q + 1, T.OPEN);
    if (c === '!') {
      if (s.startsWith('--', q + 1)) return { end: p, next: 'com' };
      const close = this.closeBraces.next(q + 1);
      if (close >= 0) return this.token(p, close + 2, T.COMMENT, 'INITIAL');
    }
    return this.token(p, c === '*' ? q + 1 : q, T.OPEN);
  }

  /** The token of the text from `p` to `end`. */
  private token(p: number, end: number, type: TokenType, next?: RuleMatch['next']): RuleMatch {
    return { end, type, text: this.text.slice(p, end), next };
  }

  /** `~?}}` at `at`: where it ends, or -1. */
  private closeAt(at: number): number {
    const from = this.text[at] === '~' ? at + 1 : at;
    return this.text.startsWith('}}', from) ? from + 2 : -1;
  }
}
