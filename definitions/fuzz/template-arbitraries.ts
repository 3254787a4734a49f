/**
 * Templates and `if` conditions for the compiler's property tests. Each is generated as an
 * abstract tree whose references are indices; {@link renderTemplateSource} and
 * {@link renderConditionSource} resolve them against the references a step may read, so that
 * a definition's templates read only earlier steps and declared inputs.
 */
import fc from 'fast-check';
import { isList, MARKER, markedText, type JsonSchema } from './schema-arbitrary.js';

/** A reference a step may read, in its template spelling (`steps.a.results.0`, `inputs.x`). */
export interface Readable {
  /** Template spelling, without braces. */
  template: string;
  /** `$nodes` spelling for `if` and whole-string inputs (`$nodes.a.output.results[].x`). */
  condition: string;
  /** Plain `if` spelling (`steps.a.results.0`, `inputs.x`). */
  plain: string;
  /** The value's schema; a list can be iterated. */
  schema: JsonSchema;
  /** Whether the reference holds a `[]` projection (not allowed in templates). */
  projected: boolean;
}

/** A literal as a helper argument or comparison operand. */
export type Literal = string | number | boolean | null;

/** One piece of an abstract template. */
export type TemplatePart =
  | { t: 'text'; text: string }
  | { t: 'ref'; pick: number; triple: boolean }
  | { t: 'helper'; name: 'len' | 'json'; pick: number }
  | { t: 'default'; pick: number; fallback: Literal }
  | { t: 'if'; negate: boolean; pick: number; sub: boolean; then: TemplatePart[]; else: TemplatePart[] }
  | { t: 'each'; pick: number; body: TemplatePart[]; else: TemplatePart[] }
  | { t: 'item'; field: number; form: 'this' | 'bare' | 'json' | 'index' | 'first' | 'last' };

/** Text outside mustaches: marked, never holding `{{`, `}}` or a backslash before one. */
export const plainText: fc.Arbitrary<string> = markedText(1, 30).map((s) => s.replace(/[{}\\]/g, ' '));

/** A literal, including numbers that JSON cannot carry exactly (large, fractional, negative). */
export const literal: fc.Arbitrary<Literal> = fc.oneof(
  plainText.map((s) => s.replace(/["']/g, ' ')),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.integer({ min: -100_000_000, max: 100_000_000 }).map((n) => n / 100),
  fc.boolean(),
  fc.constant(null),
);

/** Abstract templates up to a small depth. */
export const templateParts: fc.Arbitrary<TemplatePart[]> = fc.letrec<{
  parts: TemplatePart[];
  part: TemplatePart;
}>((tie) => ({
  parts: fc.array(tie('part'), { maxLength: 5 }),
  part: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ t: fc.constant('text' as const), text: plainText }),
    fc.record({ t: fc.constant('ref' as const), pick: fc.nat(), triple: fc.boolean() }),
    fc.record({
      t: fc.constant('helper' as const),
      name: fc.constantFrom('len' as const, 'json' as const),
      pick: fc.nat(),
    }),
    fc.record({ t: fc.constant('default' as const), pick: fc.nat(), fallback: literal }),
    fc.record({
      t: fc.constant('if' as const),
      negate: fc.boolean(),
      pick: fc.nat(),
      sub: fc.boolean(),
      then: tie('parts'),
      else: tie('parts'),
    }),
    fc.record({
      t: fc.constant('each' as const),
      pick: fc.nat(),
      body: tie('parts'),
      else: tie('parts'),
    }),
    fc.record({
      t: fc.constant('item' as const),
      field: fc.nat(),
      form: fc.constantFrom(
        'this' as const,
        'bare' as const,
        'json' as const,
        'index' as const,
        'first' as const,
        'last' as const,
      ),
    }),
  ),
})).parts;

/** A literal as a template or condition source token. */
export function literalSource(value: Literal, quote: '"' | "'" = '"'): string {
  if (typeof value === 'string') return quote + value + quote;
  return String(value);
}

interface TemplateScope {
  readable: Readable[];
  /** Fields of the innermost `#each` element, when inside one. */
  item?: JsonSchema;
  eachDepth: number;
}

/** Writes an abstract template as source text, reading only `readable`. */
export function renderTemplateSource(parts: readonly TemplatePart[], readable: Readable[]): string {
  return writeParts(parts, { readable: readable.filter((r) => !r.projected), eachDepth: 0 });
}

function writeParts(parts: readonly TemplatePart[], scope: TemplateScope): string {
  return parts.map((part) => writePart(part, scope)).join('');
}

function pickFrom<T>(list: readonly T[], pick: number): T | undefined {
  return list.length === 0 ? undefined : list[pick % list.length];
}

function writePart(part: TemplatePart, scope: TemplateScope): string {
  const ref = 'pick' in part ? pickFrom(scope.readable, part.pick)?.template : undefined;
  switch (part.t) {
    case 'text':
      return part.text;
    case 'ref':
      return ref ? (part.triple ? `{{{${ref}}}}` : `{{${ref}}}`) : MARKER;
    case 'helper':
      return ref ? `{{${part.name} ${ref}}}` : MARKER;
    case 'default':
      return ref ? `{{default ${ref} ${literalSource(part.fallback)}}}` : MARKER;
    case 'if': {
      if (!ref) return writeParts(part.then, scope);
      const cond = part.sub ? `(len ${ref})` : ref;
      const block = part.negate ? 'unless' : 'if';
      const otherwise = part.else.length > 0 ? `{{else}}${writeParts(part.else, scope)}` : '';
      return `{{#${block} ${cond}}}${writeParts(part.then, scope)}${otherwise}{{/${block}}}`;
    }
    case 'each': {
      const lists = scope.readable.filter((r) => isList(r.schema));
      const list = pickFrom(lists, part.pick);
      if (!list || scope.eachDepth >= 3) return writeParts(part.else, scope);
      const inner: TemplateScope = {
        ...scope,
        item: list.schema.items ?? {},
        eachDepth: scope.eachDepth + 1,
      };
      const otherwise = part.else.length > 0 ? `{{else}}${writeParts(part.else, scope)}` : '';
      return `{{#each ${list.template}}}${writeParts(part.body, inner)}${otherwise}{{/each}}`;
    }
    case 'item':
      return writeItem(part, scope);
  }
}

function writeItem(part: Extract<TemplatePart, { t: 'item' }>, scope: TemplateScope): string {
  if (!scope.item) return MARKER;
  const fields = Object.keys(scope.item.properties ?? {});
  const field = pickFrom(fields, part.field);
  switch (part.form) {
    case 'this':
      return field ? `{{this.${field}}}` : '{{this}}';
    case 'bare':
      return field ? `{{${field}}}` : '{{this}}';
    case 'json':
      return '{{json this}}';
    default:
      return `{{@${part.form}}}`;
  }
}

/** An abstract `if` predicate. */
export type ConditionPart =
  | { t: 'ref'; pick: number; nodes: boolean }
  | {
      t: 'compare';
      op: '==' | '!=' | '<' | '<=' | '>' | '>=';
      pick: number;
      nodes: boolean;
      value: Literal;
      quote: '"' | "'";
    }
  | { t: 'not'; operand: ConditionPart }
  | { t: 'and' | 'or'; left: ConditionPart; right: ConditionPart };

/** Abstract `if` predicates. */
export const conditionPart: fc.Arbitrary<ConditionPart> = fc.letrec<{ cond: ConditionPart }>((tie) => ({
  cond: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ t: fc.constant('ref' as const), pick: fc.nat(), nodes: fc.boolean() }),
    fc.record({
      t: fc.constant('compare' as const),
      op: fc.constantFrom(
        '==' as const,
        '!=' as const,
        '<' as const,
        '<=' as const,
        '>' as const,
        '>=' as const,
      ),
      pick: fc.nat(),
      nodes: fc.boolean(),
      value: literal,
      quote: fc.constantFrom('"' as const, "'" as const),
    }),
    fc.record({ t: fc.constant('not' as const), operand: tie('cond') }),
    fc.record({ t: fc.constantFrom('and' as const, 'or' as const), left: tie('cond'), right: tie('cond') }),
  ),
})).cond;

/** Writes an abstract predicate as an `if` expression over `readable`; undefined when none. */
export function renderConditionSource(part: ConditionPart, readable: Readable[]): string | undefined {
  if (readable.length === 0) return undefined;
  const write = (p: ConditionPart): string => {
    switch (p.t) {
      case 'ref':
        return spell(pickFrom(readable, p.pick)!, p.nodes);
      case 'compare':
        return `${spell(pickFrom(readable, p.pick)!, p.nodes)} ${p.op} ${literalSource(p.value, p.quote)}`;
      case 'not':
        return `!(${write(p.operand)})`;
      case 'and':
        return `(${write(p.left)}) && (${write(p.right)})`;
      case 'or':
        return `(${write(p.left)}) || (${write(p.right)})`;
    }
  };
  return write(part);
}

function spell(ref: Readable, nodes: boolean): string {
  return nodes || ref.projected ? ref.condition : ref.plain;
}
