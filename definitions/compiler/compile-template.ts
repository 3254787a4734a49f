/**
 * Compiles handlebars text into the plan's template nodes. The text is parsed to Handlebars'
 * tree (parse-template.ts); nothing is ever compiled to JavaScript. The tree is reduced to a
 * small sandboxed subset: plain paths, `#if`/`#unless`/`#each` blocks and the helpers `len`,
 * `json` and `default`.
 */
import { LIMITS } from '../limits.js';
import type { HelperName, Reference, TemplateNode, ValueExpr } from '../runtime/plan.js';
import { listElement, type SchemaShape, type SchemaWalk } from '../schema/schema-path.js';
import { lineStarts } from '../source/source-map.js';
import { checkReference, type ReferenceScope, type ReferenceSite } from './reference-checker.js';
import { parseTemplate, type ParsedTemplate, type TemplateParser } from './parse-template.js';
import { toSegment } from './reference-syntax.js';

const HELPER_ARITY: Record<HelperName, number> = { len: 1, json: 1, default: 2 };
const BLOCKS = new Set(['if', 'unless', 'each']);
const DATA_NAMES = new Set(['index', 'first', 'last']);

type Loc = hbs.AST.SourceLocation | undefined;

/**
 * Compiles one template string found at `site.path`. `parse` is the parser (a parameter so that
 * tests can compare it with Handlebars' own).
 */
export function compileTemplate(
  text: string,
  scope: ReferenceScope,
  site: ReferenceSite,
  parse: TemplateParser = parseTemplate,
): TemplateNode[] {
  return new TemplateCompiler(text, scope, site, parse).compile();
}

class TemplateCompiler {
  private starts: number[] = [];
  /** The text line and column numbers count in, with the way back to source offsets. */
  private parsed: Pick<ParsedTemplate, 'text' | 'toSource'> = { text: '', toSource: (offset) => offset };
  /** How many `#each` blocks enclose the node being compiled. */
  private eachDepth = 0;

  constructor(
    private readonly text: string,
    private readonly scope: ReferenceScope,
    private readonly site: ReferenceSite,
    private readonly parse: TemplateParser,
  ) {}

  compile(): TemplateNode[] {
    if (this.text.length > LIMITS.maxTemplateChars) {
      this.report(
        'TOO_LARGE',
        `The template has ${this.text.length} characters; the limit is ${LIMITS.maxTemplateChars}.`,
      );
      return [];
    }
    const raw = this.text.indexOf('{{{{');
    if (raw >= 0) {
      this.report('TEMPLATE_NOT_ALLOWED', 'Raw blocks ({{{{...}}}}) are not allowed.', raw);
      return [];
    }
    const parsed = this.parse(this.text);
    this.parsed = parsed;
    this.starts = lineStarts(parsed.text);
    if ('error' in parsed.result) {
      const line = Number(/on line (\d+)/.exec(parsed.result.error)?.[1] ?? 1);
      this.report(
        'TEMPLATE_SYNTAX',
        syntaxMessage(parsed.result.error),
        parsed.toSource(this.starts[line - 1] ?? 0),
      );
      return [];
    }
    const { program } = parsed.result;
    return this.program(program, undefined);
  }

  private offset(loc: Loc): number | undefined {
    if (!loc) return undefined;
    return this.parsed.toSource((this.starts[loc.start.line - 1] ?? 0) + loc.start.column);
  }

  private report(
    code: Parameters<ReferenceScope['map']['diagnostic']>[0],
    message: string,
    offset?: number,
  ): void {
    const at = offset === undefined ? this.site.offset : (this.site.offset ?? 0) + offset;
    this.scope.diagnostics.push(this.scope.map.diagnostic(code, message, this.site.path, { offset: at }));
  }

  private program(program: hbs.AST.Program | undefined, item: SchemaShape | undefined): TemplateNode[] {
    const out: TemplateNode[] = [];
    for (const statement of program?.body ?? []) {
      const node = this.statement(statement, item);
      if (!node) continue;
      const last = out[out.length - 1];
      if (node.kind === 'text' && last?.kind === 'text') last.text += node.text;
      else out.push(node);
    }
    return out;
  }

  private statement(node: hbs.AST.Statement, item: SchemaShape | undefined): TemplateNode | undefined {
    switch (node.type) {
      case 'ContentStatement':
        return { kind: 'text', text: (node as hbs.AST.ContentStatement).value };
      case 'CommentStatement':
        return undefined;
      case 'MustacheStatement': {
        const expr = this.call(node as hbs.AST.MustacheStatement, item);
        return expr && { kind: 'value', expr };
      }
      case 'BlockStatement':
        return this.block(node as hbs.AST.BlockStatement, item);
      default: {
        const what = node.type.startsWith('Partial') ? 'Partials' : 'Decorators';
        this.report('TEMPLATE_NOT_ALLOWED', `${what} are not allowed in templates.`, this.offset(node.loc));
        return undefined;
      }
    }
  }

  private block(node: hbs.AST.BlockStatement, item: SchemaShape | undefined): TemplateNode | undefined {
    const name = node.path.original;
    const at = this.offset(node.loc);
    if (!BLOCKS.has(name)) {
      this.report('UNKNOWN_HELPER', 'Unknown block helper; use #if, #unless or #each.', at);
      return undefined;
    }
    if (hasHash(node) || (node.program?.blockParams?.length ?? 0) > 0) {
      this.report('TEMPLATE_NOT_ALLOWED', `#${name} takes no hash arguments or block parameters.`, at);
      return undefined;
    }
    const [param] = node.params;
    if (node.params.length !== 1 || !param) {
      this.report('TEMPLATE_NOT_ALLOWED', `#${name} takes exactly one argument.`, at);
      return undefined;
    }
    if (name !== 'each') {
      const cond = this.expression(param, item);
      if (!cond) return undefined;
      const [then, otherwise] = [this.program(node.program, item), this.program(node.inverse, item)];
      return { kind: 'if', negate: name === 'unless', cond, then, else: otherwise };
    }
    let element: SchemaShape = 'any';
    let list: ValueExpr | undefined;
    if (param.type === 'PathExpression') {
      const resolved = this.path(param as hbs.AST.PathExpression, item);
      list = resolved?.expr;
      const shape = resolved?.walk?.ok ? listElement(resolved.walk) : 'any';
      if (shape) element = shape;
      else if (resolved)
        this.report(
          'NOT_A_LIST',
          '#each needs a list, but this reference does not yield one.',
          this.offset(param.loc),
        );
    } else {
      list = this.expression(param, item);
    }
    if (!list) return undefined;
    if (this.eachDepth >= LIMITS.maxEachDepth) {
      this.report('TOO_LARGE', `#each may be nested at most ${LIMITS.maxEachDepth} deep.`, at);
      return undefined;
    }
    this.eachDepth += 1;
    const body = this.program(node.program, element);
    this.eachDepth -= 1;
    return { kind: 'each', list, body, else: this.program(node.inverse, item) };
  }

  private call(
    node: hbs.AST.MustacheStatement | hbs.AST.SubExpression,
    item: SchemaShape | undefined,
  ): ValueExpr | undefined {
    const at = this.offset(node.loc);
    if (hasHash(node)) {
      this.report('TEMPLATE_NOT_ALLOWED', 'Hash arguments (key=value) are not allowed.', at);
      return undefined;
    }
    if (node.path.type !== 'PathExpression') {
      this.report('TEMPLATE_NOT_ALLOWED', 'A mustache must hold a path or a helper call, not a literal.', at);
      return undefined;
    }
    const path = node.path as hbs.AST.PathExpression;
    if (node.params.length === 0 && !Object.hasOwn(HELPER_ARITY, path.original))
      return this.expression(path, item);
    const name = path.original;
    if (!Object.hasOwn(HELPER_ARITY, name)) {
      this.report('UNKNOWN_HELPER', 'Unknown helper; the helpers are len, json and default.', at);
      return undefined;
    }
    const arity = HELPER_ARITY[name as HelperName];
    if (node.params.length !== arity) {
      this.report('TEMPLATE_NOT_ALLOWED', `Helper "${name}" takes ${arity} argument(s).`, at);
      return undefined;
    }
    const args = node.params.map((p) => this.expression(p, item));
    if (args.some((a) => a === undefined)) return undefined;
    return { kind: 'helper', name: name as HelperName, args: args as ValueExpr[] };
  }

  private expression(node: hbs.AST.Expression, item: SchemaShape | undefined): ValueExpr | undefined {
    switch (node.type) {
      case 'NumberLiteral':
        return this.number(node as hbs.AST.NumberLiteral);
      case 'StringLiteral':
      case 'BooleanLiteral':
        return { kind: 'literal', value: (node as hbs.AST.StringLiteral).value };
      case 'NullLiteral':
      case 'UndefinedLiteral':
        return { kind: 'literal', value: null };
      case 'SubExpression':
        return this.call(node as hbs.AST.SubExpression, item);
      case 'PathExpression':
        return this.path(node as hbs.AST.PathExpression, item)?.expr;
      default:
        this.report('TEMPLATE_NOT_ALLOWED', `Unsupported expression ${node.type}.`, this.offset(node.loc));
        return undefined;
    }
  }

  /**
   * A number literal must keep its value: one whose integer part passes the safe integer range
   * (a 400-digit literal would become Infinity, a 20-digit one a rounded number) is refused.
   */
  private number(node: hbs.AST.NumberLiteral): ValueExpr | undefined {
    if (Number.isSafeInteger(Math.trunc(node.value))) return { kind: 'literal', value: node.value };
    this.report(
      'INVALID_VALUE',
      `A number literal must lie between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}.`,
      this.offset(node.loc),
    );
    return undefined;
  }

  private path(
    node: hbs.AST.PathExpression,
    item: SchemaShape | undefined,
  ): { expr: ValueExpr; walk: SchemaWalk | undefined } | undefined {
    const at = this.offset(node.loc);
    const ref = this.reference(node, item, at);
    if (!ref) return undefined;
    const site = {
      path: this.site.path,
      offset: at === undefined ? this.site.offset : (this.site.offset ?? 0) + at,
    };
    const walk = checkReference(this.scope, ref, site, item);
    return { expr: { kind: 'ref', ref }, walk };
  }

  private reference(
    node: hbs.AST.PathExpression,
    item: SchemaShape | undefined,
    at: number | undefined,
  ): Reference | undefined {
    const { parts, original } = node;
    if (node.depth > 0 || original.includes('../'))
      return this.refuse(at, 'TEMPLATE_NOT_ALLOWED', 'Parent paths (../) are not allowed.');
    if (parts.some((p) => p === ''))
      return this.refuse(at, 'INVALID_REFERENCE', 'The reference has an empty segment.');
    if (node.data) {
      const [name] = parts;
      if (parts.length !== 1 || name === undefined || !DATA_NAMES.has(name)) {
        return this.refuse(
          at,
          'TEMPLATE_NOT_ALLOWED',
          'This @ variable is not allowed; only @index, @first and @last are.',
        );
      }
      if (!item) return this.refuse(at, 'INVALID_REFERENCE', `@${name} is only available inside #each.`);
      return { root: 'data', name: name as 'index' | 'first' | 'last' };
    }
    const segments = parts.map(toSegment);
    const explicitThis = /^(this\b|\.\/)/.test(original);
    const [first, second] = parts;
    if (!explicitThis && (first === 'steps' || first === 'inputs')) {
      if (second === undefined)
        return this.refuse(
          at,
          'INVALID_REFERENCE',
          first === 'steps' ? 'steps. needs a step id.' : 'inputs. needs an input name.',
        );
      return first === 'steps'
        ? { root: 'steps', step: second, path: segments.slice(2) }
        : { root: 'inputs', name: second, path: segments.slice(2) };
    }
    // Inside a for_each, `item` and `index` name its element and position (inside `#each` too:
    // `this.item` still reads an element's own field); outside one they stay ordinary paths.
    if (!explicitThis && this.scope.loop && first === 'item')
      return { root: 'loop', path: segments.slice(1) };
    if (!explicitThis && this.scope.loop && first === 'index' && parts.length === 1)
      return { root: 'loop_index' };
    // Inside an on_error handler, `error.code` and `error.step` name the failure it handles.
    if (!explicitThis && this.scope.handler && first === 'error') {
      if (parts.length === 2 && (second === 'code' || second === 'step'))
        return { root: 'error', field: second };
      return this.refuse(at, 'INVALID_REFERENCE', 'error has only the fields code and step.');
    }
    if (explicitThis || item) return { root: 'item', path: segments };
    if (first === 'item' || first === 'index')
      return this.refuse(at, 'INVALID_REFERENCE', `${first} is only available inside a for_each.`);
    if (first === 'error')
      return this.refuse(at, 'INVALID_REFERENCE', 'error is only available inside an on_error handler.');
    const forbidden = parts.find((p) => p === '__proto__' || p === 'constructor' || p === 'prototype');
    if (forbidden)
      return this.refuse(
        at,
        'FORBIDDEN_PROPERTY',
        `The reference touches the forbidden property ${forbidden}.`,
      );
    return this.refuse(
      at,
      'INVALID_REFERENCE',
      'This path is not a reference; use steps.<id>.<field> or inputs.<name>.',
    );
  }

  /** Reports a broken reference (a method, not a closure: one is created per reference otherwise). */
  private refuse(
    at: number | undefined,
    code: 'TEMPLATE_NOT_ALLOWED' | 'INVALID_REFERENCE' | 'FORBIDDEN_PROPERTY',
    message: string,
  ): undefined {
    this.report(code, message, at);
    return undefined;
  }
}

function hasHash(node: { hash?: hbs.AST.Hash }): boolean {
  return (node.hash?.pairs.length ?? 0) > 0;
}

/**
 * Handlebars' parse errors echo the template; keep only what names the grammar: the tokens the
 * parser expected (its own terminal names), or the kind of mistake.
 */
function syntaxMessage(raw: string): string {
  const prefix = 'Template does not parse: ';
  const expecting = /^Expecting (.*), got '([A-Z_]+)'$/m.exec(raw);
  if (expecting) return `${prefix}expected ${expecting[1]}, got ${expecting[2]}.`;
  const unexpected = /^Parse error on line \d+: Unexpected (end of input|'[A-Z_]+')/.exec(raw);
  if (unexpected) return `${prefix}unexpected ${unexpected[1]}.`;
  if (raw.startsWith('Lexical error')) return `${prefix}unrecognized text inside a mustache.`;
  if (raw.includes(" doesn't match ")) return `${prefix}a closing tag does not match its block.`;
  if (raw.startsWith('Invalid path')) return `${prefix}this, . and .. may only start a path.`;
  return `${prefix}the template is malformed.`;
}
