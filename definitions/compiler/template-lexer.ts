/**
 * A linear lexer that yields the tokens Handlebars' generated (Jison) lexer yields for the same
 * text, with the same lines and columns, in one pass. Outside mustaches it reads text up to the
 * next `{{` (`\{{` escapes one, `\\{{` keeps a backslash); comments `{{!-- --}}` are read whole.
 *
 * One rewrite: Handlebars lexes a digit segment at the end of a path (`inputs.tags.0`) as a
 * number, so the path does not parse. The language documents `.0` as a list index, so such a
 * number after a separator becomes the bracketed segment `[0]` (`0.1` becomes `[0]`, `.`, `[1]`),
 * as if the author had written the bracket form. The rewrite is skipped where the text has no
 * separator directly followed by a digit, or does not lex.
 */
import { ForwardSearch } from './forward-search.js';
import { MustacheRules, type RuleMatch } from './mustache-rules.js';
import { T, type LexedTemplate, type Token } from './template-tokens.js';

type State = 'INITIAL' | 'mu' | 'emu' | 'com' | 'raw';
type Match = Omit<RuleMatch, 'next'> & { next?: State };

/** Lexes `text` to the end, or to the first text no rule matches. */
export function lexTemplate(text: string): LexedTemplate {
  const lexed = new TemplateLexer(text).run();
  if (lexed.lexicalErrorLine !== undefined || !/[./]\d/.test(text)) return lexed;
  return { tokens: bracketDigitSegments(lexed.tokens) };
}

class TemplateLexer {
  private readonly tokens: Token[] = [];
  private readonly rules: MustacheRules;
  private readonly braces: ForwardSearch;
  private readonly nul: ForwardSearch;
  private state: State = 'INITIAL';
  private pos = 0;
  /** Line breaks before `pos`, and the column at `pos`, as the generated lexer counts them. */
  private lineno = 0;
  private column = 0;

  constructor(private readonly text: string) {
    this.rules = new MustacheRules(text);
    this.braces = new ForwardSearch((from) => text.indexOf('{{', from));
    this.nul = new ForwardSearch((from) => text.indexOf('\0', from));
  }

  run(): LexedTemplate {
    for (;;) {
      const match = this.match();
      if (!match) return { tokens: this.tokens, lexicalErrorLine: this.lineno + 1 };
      // The generated lexer leaves its position alone when the raw state ends the input.
      const last = match.type === T.RAW_EOF ? this.tokens[this.tokens.length - 1] : undefined;
      const [line, column] = last ? [last.line, last.column] : [this.lineno + 1, this.column];
      const start = this.pos;
      this.advance(match.end);
      if (match.next) this.state = match.next;
      if (match.type === undefined) continue;
      this.tokens.push({
        type: match.type,
        text: match.text ?? '',
        length: match.end - start,
        line,
        column,
        endLine: this.lineno + 1,
        endColumn: this.column,
        lineno: this.lineno,
      });
      if (match.type === T.EOF || match.type === T.RAW_EOF) return { tokens: this.tokens };
    }
  }

  /** The rule that matches at the current position in the current state, if any. */
  private match(): Match | undefined {
    const { text, pos } = this;
    switch (this.state) {
      case 'mu':
        return this.rules.match(pos);
      case 'emu':
        return this.escaped(pos);
      case 'com':
        return this.comment(pos);
      case 'raw':
        return pos >= text.length ? { end: pos, type: T.RAW_EOF, text: '' } : undefined;
      default:
        return this.content(pos);
    }
  }

  /** Text up to the next `{{`, or up to a NUL or the end when none follows. */
  private content(pos: number): Match | undefined {
    const { text } = this;
    const open = this.braces.next(pos);
    const nul = this.nul.next(pos);
    if (open >= 0 && (nul < 0 || nul >= open)) {
      let value = text.slice(pos, open);
      let next: State = 'mu';
      if (value.endsWith('\\\\')) value = value.slice(0, -1);
      else if (value.endsWith('\\')) [value, next] = [value.slice(0, -1), 'emu'];
      return { end: open, type: value ? T.CONTENT : undefined, text: value, next };
    }
    const end = nul < 0 ? text.length : nul;
    if (end > pos) return { end, type: T.CONTENT, text: text.slice(pos, end) };
    return pos >= text.length ? { end: pos, type: T.EOF, text: '' } : undefined;
  }

  /** After `\`: at least two characters, up to the next `{{`, `\{{` or `\\{{` or the end. */
  private escaped(pos: number): Match | undefined {
    const { text } = this;
    if (pos + 2 > text.length || text.charCodeAt(pos) === 0) return undefined;
    for (let end = pos + 2; end <= text.length; end++) {
      if (text.charCodeAt(end - 1) === 0) return undefined;
      const stop =
        end === text.length ||
        text.startsWith('{{', end) ||
        text.startsWith('\\{{', end) ||
        text.startsWith('\\\\{{', end);
      if (stop) return { end, type: T.CONTENT, text: text.slice(pos, end), next: 'INITIAL' };
    }
    return undefined;
  }

  /** A `{{!-- --}}` comment: up to the first `--}}` or `--~}}`. */
  private comment(pos: number): Match | undefined {
    const { text } = this;
    for (let close = text.indexOf('}}', pos); close >= 0; close = text.indexOf('}}', close + 1)) {
      const dashes = text[close - 1] === '~' ? close - 3 : close - 2;
      if (dashes >= pos && text.startsWith('--', dashes)) {
        return { end: close + 2, type: T.COMMENT, text: text.slice(pos, close + 2), next: 'INITIAL' };
      }
    }
    return undefined;
  }

  /** Moves to `end`, counting line breaks and the column. */
  private advance(end: number): void {
    const { text } = this;
    let lastBreak = -1;
    for (let i = this.pos; i < end; i++) {
      const code = text.charCodeAt(i);
      if (code === 13) {
        if (i + 1 < end && text.charCodeAt(i + 1) === 10) i++;
      } else if (code !== 10) continue;
      this.lineno++;
      lastBreak = i;
    }
    if (lastBreak < 0) this.column += end - this.pos;
    else {
      let run = lastBreak + 1;
      while (run < end && text.charCodeAt(run) !== 0x2028 && text.charCodeAt(run) !== 0x2029) run++;
      this.column = run - lastBreak - 1;
    }
    this.pos = end;
  }
}

/** Rewrites each number token after a separator into bracketed segments (see the module comment). */
export function bracketDigitSegments(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (const token of tokens) {
    const previous = out[out.length - 1];
    if (token.type !== T.NUMBER || previous?.type !== T.SEP || !/^\d+(?:\.\d+)?$/.test(token.text)) {
      out.push(token);
      continue;
    }
    const [whole, fraction] = token.text.split('.') as [string, string | undefined];
    out.push(digitSegment(token, whole, token.column));
    if (fraction === undefined) continue;
    const dot = token.column + whole.length;
    out.push({ ...token, type: T.SEP, text: '.', length: 1, column: dot, endColumn: dot + 1 });
    out.push(digitSegment(token, fraction, dot + 1));
  }
  return out;
}

/** The bracketed segment `[digits]` at `column` of a number token. */
function digitSegment(token: Token, digits: string, column: number): Token {
  return {
    ...token,
    type: T.ID,
    text: `[${digits}]`,
    length: digits.length,
    column,
    endColumn: column + digits.length,
  };
}
