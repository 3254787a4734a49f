/**
 * The tree nodes of templates, built as Handlebars' parser builds them (its `prepareBlock`,
 * `preparePath`, `stripFlags` helpers), so that its whitespace control and the compiler read the
 * subset parser's trees exactly as they read Handlebars' own.
 */
import type { Token } from './template-tokens.js';

export type Node = Record<string, unknown>;
export interface Strip {
  open: boolean;
  close: boolean;
}
/** The opening tag of a block or of an `{{else name}}` link. */
export interface Opening {
  open?: string;
  path: Node;
  params: Node[];
  strip: Strip;
}
/** What follows a block's body: `{{else}}` and a body, or a chain of `{{else name}}` links. */
export interface Inverse {
  strip: Strip;
  program: Node;
  chain?: true;
}

export const stripFlags = (open: string, close: string): Strip => ({
  open: open.charAt(2) === '~',
  close: close.charAt(close.length - 3) === '~',
});

export const location = (first: Token, last: Token) => ({
  source: undefined,
  start: { line: first.line, column: first.column },
  end: { line: last.endLine, column: last.endColumn },
});

/** A bracketed segment (`[a b]`, on one line) stands for its inside. */
export function segmentName(token: string): string {
  return token.length >= 2 &&
    token.startsWith('[') &&
    token.endsWith(']') &&
    !/[\n\r\u2028\u2029]/.test(token)
    ? token.slice(1, -1)
    : token;
}

/** A program node, located from its first statement to its last, as Handlebars locates it. */
export function programNode(body: Node[]): Node {
  const first = body[0]?.loc as { start: object } | undefined;
  const last = body[body.length - 1]?.loc as { end: object } | undefined;
  const loc = first && last ? { source: undefined, start: first.start, end: last.end } : undefined;
  return { type: 'Program', body, strip: {}, loc };
}

/** Handlebars' `prepareBlock`: the block node, with `{{^...}}` swapping body and inverse. */
export function prepareBlock(
  opening: Opening,
  program: Node,
  inverseAndProgram: Inverse | undefined,
  close: { strip: Strip } | undefined,
  inverted: boolean,
  loc: object,
): Node {
  program.blockParams = undefined;
  let inverse: Node | undefined;
  let inverseStrip: Strip | undefined;
  if (inverseAndProgram) {
    if (inverseAndProgram.chain) {
      ((inverseAndProgram.program.body as Node[])[0] as Node).closeStrip = close?.strip;
    }
    inverseStrip = inverseAndProgram.strip;
    inverse = inverseAndProgram.program;
  }
  const [body, otherwise] = inverted ? [inverse, program] : [program, inverse];
  return {
    type: 'BlockStatement',
    path: opening.path,
    params: opening.params,
    hash: undefined,
    program: body,
    inverse: otherwise,
    openStrip: opening.strip,
    inverseStrip,
    closeStrip: close?.strip,
    loc,
  };
}
