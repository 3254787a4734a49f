/**
 * Handlebars' own parser (its generated LR tables and tree helpers), fed with our tokens instead
 * of its lexer. It serves the templates the subset parser gives up on: those that do not parse
 * get Handlebars' own error (which names the grammar's expected tokens), and those that parse
 * but leave the sandbox (partials, decorators, hash arguments) get Handlebars' tree, which the
 * compiler refuses node by node. Linear: one table step per token.
 */
import Handlebars from 'handlebars';
import type { LexedTemplate, Token } from './template-tokens.js';

interface Location {
  first_line: number;
  first_column: number;
  last_line: number;
  last_column: number;
}

/** The part of the generated parser used here (not in Handlebars' type declarations). */
interface GeneratedParser {
  yy: Record<string, unknown>;
  lexer: unknown;
  parse(input: string): hbs.AST.Program;
  Parser: new () => GeneratedParser;
}

const HANDLEBARS_PARSER = (Handlebars as unknown as { Parser: GeneratedParser }).Parser;

/** Handlebars' tree helpers (`preparePath`, `prepareBlock`, `locInfo`...), set up by one parse. */
const TREE_HELPERS = (() => {
  Handlebars.parseWithoutProcessing('');
  return { ...HANDLEBARS_PARSER.yy };
})();

/** What the generated parser reads from its lexer, served from a token list. */
class TokenFeed {
  readonly options = {};
  yytext = '';
  yyleng = 0;
  yylineno = 0;
  yylloc: Location = { first_line: 1, first_column: 0, last_line: 1, last_column: 0 };
  match = '';
  private next = 0;

  constructor(private readonly lexed: LexedTemplate) {}

  setInput(): void {
    this.next = 0;
  }

  lex(): Token['type'] {
    const token = this.lexed.tokens[this.next];
    if (!token) {
      throw new Error(
        `Lexical error on line ${this.lexed.lexicalErrorLine ?? this.yylineno + 1}. Unrecognized text.`,
      );
    }
    this.next += 1;
    this.yytext = token.text;
    this.yyleng = token.length;
    this.yylineno = token.lineno;
    this.yylloc = {
      first_line: token.line,
      first_column: token.column,
      last_line: token.endLine,
      last_column: token.endColumn,
    };
    return token.type;
  }

  /** Handlebars puts the text around the error here; diagnostics never quote template text. */
  showPosition(): string {
    return '';
  }
}

/** Parses `lexed` with Handlebars' grammar; throws Handlebars' error when it does not parse. */
export function parseWithHandlebarsGrammar(lexed: LexedTemplate): hbs.AST.Program {
  const parser = new HANDLEBARS_PARSER.Parser();
  parser.yy = { ...TREE_HELPERS };
  parser.lexer = new TokenFeed(lexed);
  return parser.parse('');
}
