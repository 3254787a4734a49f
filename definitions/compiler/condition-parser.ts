/**
 * Parser for step `if` predicates. Grammar (whitespace between tokens is free):
 *
 *   expr    := or
 *   or      := and ( "||" and )*
 *   and     := unary ( "&&" unary )*
 *   unary   := "!" unary | compare
 *   compare := primary ( ( "==" | "!=" | "<" | "<=" | ">" | ">=" ) primary )?
 *   primary := literal | reference | "(" expr ")"
 *   literal := number | 'string' | "string" | true | false | null
 *   reference := $nodes.<step>.output<path> | steps.<step><path> | inputs.<name><path>
 *
 * The result is a JSON AST stored in the plan; references are returned with their offsets so
 * the compiler can check them and point at them.
 */
import type { CompareOp, ConditionNode, Reference } from '../runtime/plan.js';
import { scanReference, startsReference } from './reference-syntax.js';

/** A reference inside a condition and where it starts in the text. */
export interface ConditionReference {
  ref: Reference;
  offset: number;
}

/** The parsed predicate, or the first syntax error. */
export type ParsedCondition =
  | { ok: true; node: ConditionNode; refs: ConditionReference[] }
  | { ok: false; message: string; offset: number };

class ConditionSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const COMPARE_OPS: readonly CompareOp[] = ['==', '!=', '<=', '>=', '<', '>'];
const NUMBER = /-?\d+(?:\.\d+)?/y;
const WORD = /[A-Za-z_$][A-Za-z0-9_$]*/y;

/** Parses an `if` expression. */
export function parseCondition(text: string): ParsedCondition {
  const parser = new ConditionParser(text);
  try {
    const node = parser.parse();
    return { ok: true, node, refs: parser.refs };
  } catch (err) {
    if (!(err instanceof ConditionSyntaxError)) throw err;
    return { ok: false, message: err.message, offset: err.offset };
  }
}

class ConditionParser {
  readonly refs: ConditionReference[] = [];
  private pos = 0;

  constructor(private readonly text: string) {}

  parse(): ConditionNode {
    const node = this.or();
    this.skip();
    if (this.pos < this.text.length)
      this.fail('Unexpected text after a complete expression; join parts with && or ||.');
    return node;
  }

  private or(): ConditionNode {
    let left = this.and();
    while (this.eat('||')) left = { kind: 'or', left, right: this.and() };
    return left;
  }

  private and(): ConditionNode {
    let left = this.unary();
    while (this.eat('&&')) left = { kind: 'and', left, right: this.unary() };
    return left;
  }

  private unary(): ConditionNode {
    this.skip();
    if (this.text[this.pos] === '!' && this.text[this.pos + 1] !== '=') {
      this.pos++;
      return { kind: 'not', operand: this.unary() };
    }
    return this.compare();
  }

  private compare(): ConditionNode {
    const left = this.primary();
    this.skip();
    const op = COMPARE_OPS.find((candidate) => this.text.startsWith(candidate, this.pos));
    if (!op) return left;
    this.pos += op.length;
    return { kind: 'compare', op, left, right: this.primary() };
  }

  private primary(): ConditionNode {
    this.skip();
    const start = this.pos;
    const ch = this.text[this.pos];
    if (ch === undefined) this.fail('Unexpected end of expression; expected a value.');
    if (ch === '(') {
      this.pos++;
      const inner = this.or();
      if (!this.eat(')')) this.fail('Expected ")".');
      return inner;
    }
    if (ch === '"' || ch === "'") return { kind: 'literal', value: this.string(ch) };
    NUMBER.lastIndex = start;
    const number = NUMBER.exec(this.text)?.[0];
    if (number !== undefined) {
      const value = Number(number);
      // Past the safe-integer range a literal loses its value (and Infinity is stored as null).
      if (Math.abs(value) > Number.MAX_SAFE_INTEGER)
        throw new ConditionSyntaxError('A number literal must lie within ±9007199254740991.', start);
      this.pos += number.length;
      return { kind: 'literal', value };
    }
    if (startsReference(this.text, start)) {
      const scanned = scanReference(this.text, start);
      if (!scanned.ok) throw new ConditionSyntaxError(scanned.message, scanned.at);
      this.pos = scanned.end;
      this.refs.push({ ref: scanned.ref, offset: start });
      return { kind: 'ref', ref: scanned.ref };
    }
    WORD.lastIndex = start;
    const word = WORD.exec(this.text)?.[0];
    if (word === 'true' || word === 'false' || word === 'null') {
      this.pos += word.length;
      return { kind: 'literal', value: word === 'null' ? null : word === 'true' };
    }
    return this.fail(
      word === undefined
        ? 'Unexpected character; expected a value.'
        : 'Unknown name; use $nodes.<step>.output.<field>, inputs.<name> or a literal.',
    );
  }

  private string(quote: string): string {
    let out = '';
    this.pos++;
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === undefined) this.fail('Unterminated string.');
      this.pos++;
      if (ch === quote) return out;
      if (ch === '\\') {
        const next = this.text[this.pos];
        if (next === undefined) this.fail('Unterminated string.');
        out += next;
        this.pos++;
      } else {
        out += ch;
      }
    }
  }

  private eat(token: string): boolean {
    this.skip();
    if (!this.text.startsWith(token, this.pos)) return false;
    this.pos += token.length;
    return true;
  }

  private skip(): void {
    while (this.text[this.pos] === ' ' || this.text[this.pos] === '\t' || this.text[this.pos] === '\n')
      this.pos++;
  }

  private fail(message: string): never {
    throw new ConditionSyntaxError(message, this.pos);
  }
}
