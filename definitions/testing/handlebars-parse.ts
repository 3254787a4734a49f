/**
 * Handlebars' own parsers, the oracles of the differential tests of parse-template.ts.
 *
 * `parseWithHandlebars` is the compiler's former parser: digit segments bracketed in the text
 * (numeric-segments.ts), then `Handlebars.parse`. Its text rewrite has two faults the compiler's
 * lexer does not share: after a `{{!-- --}}` comment it brackets the wrong characters (the
 * generated lexer's `matched` text runs four characters long there), and the `]` it inserts can
 * close an earlier unclosed `[`, so Handlebars re-lexes text the author wrote differently.
 *
 * `parseWithHandlebarsTokens` rewrites tokens instead: Handlebars' generated lexer, the same
 * rewrite as the compiler's lexer, then Handlebars' generated parser and whitespace control.
 */
import Handlebars from 'handlebars';
import type { TemplateParser } from '../compiler/parse-template.js';
import { parseWithHandlebarsGrammar } from '../compiler/handlebars-grammar.js';
import { bracketDigitSegments } from '../compiler/template-lexer.js';
import type { LexedTemplate, Token } from '../compiler/template-tokens.js';
import { bracketNumericSegments } from './numeric-segments.js';

const failure = (err: unknown) => ({ error: err instanceof Error ? err.message : String(err) });

export const parseWithHandlebars: TemplateParser = (source) => {
  const bracketed = bracketNumericSegments(source);
  const { text } = bracketed;
  const toSource = (offset: number) => bracketed.toSource(offset);
  try {
    return { text, toSource, result: { program: Handlebars.parse(text) } };
  } catch (err) {
    return { text, toSource, result: failure(err) };
  }
};

interface JisonLexer {
  setInput(input: string): void;
  lex(): number | string;
  yy: object;
  yytext: string;
  yyleng: number;
  yylineno: number;
  yylloc: { first_line: number; first_column: number; last_line: number; last_column: number };
}

const JISON = (Handlebars as unknown as { Parser: { lexer: JisonLexer; symbols_: Record<string, number> } })
  .Parser;

/** Every token of Handlebars' generated lexer, up to the end or to a lexical error. */
function lexWithHandlebars(text: string): LexedTemplate {
  const lexer = Object.create(JISON.lexer) as JisonLexer;
  lexer.yy = {};
  lexer.setInput(text);
  const tokens: Token[] = [];
  try {
    for (;;) {
      const raw = lexer.lex();
      const type = (typeof raw === 'number' ? raw : (JISON.symbols_[raw] ?? raw)) as Token['type'];
      const { first_line, first_column, last_line, last_column } = lexer.yylloc;
      tokens.push({
        type,
        text: lexer.yytext,
        length: lexer.yyleng,
        line: first_line,
        column: first_column,
        endLine: last_line,
        endColumn: last_column,
        lineno: lexer.yylineno,
      });
      if (type === 5 || type === 1) return { tokens };
    }
  } catch (err) {
    return { tokens, lexicalErrorLine: Number(/on line (\d+)/.exec(String(err))?.[1]) };
  }
}

export const parseWithHandlebarsTokens: TemplateParser = (text) => {
  const toSource = (offset: number) => offset;
  let lexed = lexWithHandlebars(text);
  if (lexed.lexicalErrorLine === undefined && /[./]\d/.test(text))
    lexed = { tokens: bracketDigitSegments(lexed.tokens) };
  try {
    const program = Handlebars.parse(parseWithHandlebarsGrammar(lexed) as unknown as string);
    return { text, toSource, result: { program } };
  } catch (err) {
    return { text, toSource, result: failure(err) };
  }
};
