/**
 * The tokens of the template language. Their numbers are the terminal numbers of Handlebars'
 * grammar, so that a token list can also be handed to Handlebars' own parser (which words the
 * diagnostics of templates that do not parse).
 */
export const T = {
  /** End of input in the raw state (the generated lexer's own end marker). */
  RAW_EOF: 1,
  EOF: 5,
  COMMENT: 14,
  CONTENT: 15,
  OPEN_RAW_BLOCK: 19,
  CLOSE_RAW_BLOCK: 23,
  OPEN_BLOCK: 29,
  CLOSE: 33,
  OPEN_INVERSE: 34,
  OPEN_INVERSE_CHAIN: 39,
  INVERSE: 44,
  OPEN_ENDBLOCK: 47,
  OPEN: 48,
  OPEN_UNESCAPED: 51,
  CLOSE_UNESCAPED: 54,
  OPEN_PARTIAL: 55,
  OPEN_PARTIAL_BLOCK: 60,
  OPEN_SEXPR: 65,
  CLOSE_SEXPR: 68,
  ID: 72,
  EQUALS: 73,
  OPEN_BLOCK_PARAMS: 75,
  CLOSE_BLOCK_PARAMS: 77,
  STRING: 80,
  NUMBER: 81,
  BOOLEAN: 82,
  UNDEFINED: 83,
  NULL: 84,
  DATA: 85,
  SEP: 87,
  /** A character no other rule takes inside a mustache. */
  INVALID: 'INVALID',
} as const;

export type TokenType = (typeof T)[keyof typeof T];

/**
 * One token. Lines count from 1 and columns from 0 as the generated lexer counts them: a line
 * break is `\r\n`, `\r` or `\n`, and after a token that holds one, the column is the length of
 * the run after the last break up to the first `\u2028`/`\u2029`.
 */
export interface Token {
  type: TokenType;
  /** The token's value (quotes and escapes removed, as the grammar sees it). */
  text: string;
  /** Length of the text the token matched. */
  length: number;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** Line breaks counted from the start up to the token's end (the lexer's `yylineno`). */
  lineno: number;
}

/** A lexed template: its tokens, and the line of text no rule matched, if lexing stopped there. */
export interface LexedTemplate {
  tokens: Token[];
  lexicalErrorLine?: number;
}

/** JavaScript's `\s`: the whitespace and line terminator characters. */
export function isSpace(code: number): boolean {
  return (
    code === 32 ||
    (code >= 9 && code <= 13) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
