/**
 * A recursive-descent parser for the part of Handlebars' grammar the sandbox can accept: text,
 * comments, `{{path params}}` and `{{{...}}}` mustaches, sub-expressions, and `{{#...}}` and
 * `{{^...}}` blocks with `{{else}}` and `{{else name ...}}` chains. It builds the tree
 * Handlebars' parser builds for the same tokens (same nodes, positions and strip flags).
 *
 * Anything else (partials, decorators, hash arguments, block parameters, a closing tag that does
 * not match, `this` inside a path, any syntax error) makes it give up and return undefined: the
 * caller then hands the tokens to Handlebars' own grammar, which either builds the tree or words
 * the syntax error as it always has.
 */
import {
  type Inverse,
  location,
  type Node,
  type Opening,
  prepareBlock,
  programNode,
  segmentName,
  stripFlags,
} from './template-nodes.js';
import { T, type Token, type TokenType } from './template-tokens.js';

/** Thrown to give up; never leaves this module (one instance: giving up costs no stack trace). */
class OutsideSubsetError extends Error {}
const OUTSIDE = new OutsideSubsetError('outside the subset');
const PARAM_START = new Set<TokenType>([
  T.ID,
  T.DATA,
  T.STRING,
  T.NUMBER,
  T.BOOLEAN,
  T.UNDEFINED,
  T.NULL,
  T.OPEN_SEXPR,
]);

/** The tree of `tokens`, or undefined when they leave the subset or do not parse. */
export function parseSubset(tokens: readonly Token[]): hbs.AST.Program | undefined {
  try {
    return new SubsetParser(tokens).root() as unknown as hbs.AST.Program;
  } catch (err) {
    if (err === OUTSIDE) return undefined;
    throw err;
  }
}

class SubsetParser {
  private at = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  root(): Node {
    const program = this.program();
    this.take(T.EOF);
    return program;
  }

  private peek(ahead = 0): TokenType | undefined {
    return this.tokens[this.at + ahead]?.type;
  }

  private take(type: TokenType): Token {
    const token = this.tokens[this.at];
    if (token?.type !== type) throw OUTSIDE;
    this.at += 1;
    return token;
  }

  private get last(): Token {
    return this.tokens[this.at - 1] as Token;
  }

  /** Statements up to a token that cannot start one. */
  private program(): Node {
    const body: Node[] = [];
    for (;;) {
      const token = this.tokens[this.at];
      switch (token?.type) {
        case T.CONTENT:
          this.at += 1;
          body.push({
            type: 'ContentStatement',
            original: token.text,
            value: token.text,
            loc: location(token, token),
          });
          break;
        case T.COMMENT:
          this.at += 1;
          body.push({
            type: 'CommentStatement',
            value: token.text.replace(/^\{\{~?!-?-?/, '').replace(/-?-?~?\}\}$/, ''),
            strip: stripFlags(token.text, token.text),
            loc: location(token, token),
          });
          break;
        case T.OPEN:
        case T.OPEN_UNESCAPED:
          body.push(this.mustache(token));
          break;
        case T.OPEN_BLOCK:
        case T.OPEN_INVERSE:
          body.push(this.block(token));
          break;
        default:
          return programNode(body);
      }
    }
  }

  private mustache(open: Token): Node {
    if (open.text.includes('*')) throw OUTSIDE;
    this.at += 1;
    const path = this.helperName();
    const params = this.params();
    const close = this.take(open.type === T.OPEN ? T.CLOSE : T.CLOSE_UNESCAPED);
    const flag = open.text.charAt(3) || open.text.charAt(2);
    return {
      type: 'MustacheStatement',
      path,
      params,
      hash: undefined,
      escaped: flag !== '{' && flag !== '&',
      strip: stripFlags(open.text, close.text),
      loc: location(open, close),
    };
  }

  /** `{{#name ...}}` or `{{^name ...}}`, its body, its inverse, and `{{/name}}`. */
  private block(open: Token): Node {
    if (open.text.includes('*')) throw OUTSIDE;
    const inverted = open.type === T.OPEN_INVERSE;
    const opening = this.opening(open, inverted ? undefined : open.text);
    const program = this.program();
    let inverse: Inverse | undefined;
    if (this.peek() === T.INVERSE) inverse = this.elsePart();
    else if (this.peek() === T.OPEN_INVERSE_CHAIN && !inverted) inverse = this.chain();
    const closeOpen = this.take(T.OPEN_ENDBLOCK);
    const closePath = this.helperName();
    const close = { path: closePath, strip: stripFlags(closeOpen.text, this.take(T.CLOSE).text) };
    if (opening.path.original !== closePath.original) throw OUTSIDE;
    return prepareBlock(opening, program, inverse, close, inverted, location(open, this.last));
  }

  /** The name, parameters and closing `}}` of an opening tag. */
  private opening(open: Token, text: string | undefined): Opening {
    this.at += 1;
    const path = this.helperName();
    const params = this.params();
    const close = this.take(T.CLOSE);
    return { open: text, path, params, strip: stripFlags(open.text, close.text) };
  }

  /** `{{else}}` and the body after it. */
  private elsePart(): Inverse {
    const token = this.take(T.INVERSE);
    return { strip: stripFlags(token.text, token.text), program: this.program() };
  }

  /** `{{else name ...}}`, its body, and what follows it, as one chained block. */
  private chain(): Inverse {
    const open = this.tokens[this.at] as Token;
    const opening = this.opening(open, undefined);
    const program = this.program();
    let next: Inverse | undefined;
    if (this.peek() === T.INVERSE) next = this.elsePart();
    else if (this.peek() === T.OPEN_INVERSE_CHAIN) next = this.chain();
    const block = prepareBlock(opening, program, next, next, false, location(open, this.last));
    const chained = programNode([block]);
    chained.chained = true;
    return { strip: opening.strip, program: chained, chain: true };
  }

  private params(): Node[] {
    const params: Node[] = [];
    for (let type = this.peek(); type !== undefined && PARAM_START.has(type); type = this.peek()) {
      if (type === T.ID && this.peek(1) === T.EQUALS) throw OUTSIDE;
      params.push(type === T.OPEN_SEXPR ? this.subExpression() : this.helperName());
    }
    return params;
  }

  private subExpression(): Node {
    const open = this.take(T.OPEN_SEXPR);
    const path = this.helperName();
    const params = this.params();
    const close = this.take(T.CLOSE_SEXPR);
    return { type: 'SubExpression', path, params, hash: undefined, loc: location(open, close) };
  }

  /** A path, an `@` path or a literal. */
  private helperName(): Node {
    const token = this.tokens[this.at];
    if (!token) throw OUTSIDE;
    switch (token.type) {
      case T.ID:
        return this.path(false, token);
      case T.DATA:
        this.at += 1;
        return this.path(true, token);
      case T.STRING:
        return this.literal(token, 'StringLiteral', token.text);
      case T.NUMBER:
        return this.literal(token, 'NumberLiteral', Number(token.text));
      case T.BOOLEAN:
        return this.literal(token, 'BooleanLiteral', token.text === 'true');
      case T.UNDEFINED:
        return this.literal(token, 'UndefinedLiteral', undefined);
      case T.NULL:
        return this.literal(token, 'NullLiteral', null);
      default:
        throw OUTSIDE;
    }
  }

  private literal(token: Token, type: string, value: unknown): Node {
    this.at += 1;
    return { type, value, original: value, loc: location(token, token) };
  }

  /** Segments joined by `.` or `/`; `this`, `.` and `..` only at the start. */
  private path(data: boolean, first: Token): Node {
    let original = data ? '@' : '';
    const parts: string[] = [];
    let depth = 0;
    let separator = '';
    for (;;) {
      const token = this.take(T.ID);
      const part = segmentName(token.text);
      original += separator + part;
      if (part === token.text && (part === '..' || part === '.' || part === 'this')) {
        if (parts.length > 0) throw OUTSIDE;
        if (part === '..') depth += 1;
      } else {
        parts.push(part);
      }
      if (this.peek() !== T.SEP) break;
      separator = this.take(T.SEP).text;
    }
    return { type: 'PathExpression', data, depth, parts, original, loc: location(first, this.last) };
  }
}
