/**
 * Walks a zod schema along a reference path to check, at compile time, that a skill's
 * workflow output declares the field a later step reads. Understands objects (strict, strip or
 * loose), records, arrays (index, `[]` projection, `length`), tuples, unions, intersections and
 * the wrappers (optional, nullable, default, readonly, catch, pipe, lazy).
 */
import { z } from 'zod';
import { EACH_SEGMENT, type PathSegment } from '../runtime/plan.js';

type Schema = z.core.$ZodType;

/** The possible schemas of a value, or `any` when nothing is known (unknown, any, transforms). */
export type SchemaShape = readonly Schema[] | 'any';

/** The outcome of a walk. */
export type SchemaWalk =
  { ok: true; shape: SchemaShape; projected: boolean } | { ok: false; index: number; found: string };

const LENGTH_SCHEMA = z.int().nonnegative();
const MAX_UNWRAP = 64;

interface LooseDef {
  type: string;
  innerType?: Schema;
  out?: Schema;
  getter?: () => Schema;
  options?: Schema[];
  left?: Schema;
  right?: Schema;
  shape?: Record<string, Schema>;
  catchall?: Schema;
  valueType?: Schema;
  element?: Schema;
  items?: Schema[];
  rest?: Schema | null;
}

const def = (schema: Schema): LooseDef => schema._zod.def;

/** Expands wrappers and unions into the concrete alternatives; 'any' when one is open. */
function concrete(schema: Schema, depth = 0): Schema[] | 'any' {
  if (depth > MAX_UNWRAP) return 'any';
  const d = def(schema);
  const next = (s: Schema | undefined): Schema[] | 'any' => (s ? concrete(s, depth + 1) : 'any');
  switch (d.type) {
    case 'any':
    case 'unknown':
    case 'transform':
    case 'custom':
      return 'any';
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return next(d.innerType);
    case 'pipe':
      return next(d.out);
    case 'lazy':
      return next(d.getter?.());
    case 'union':
      return merge((d.options ?? []).map(next));
    case 'intersection':
      return merge([next(d.left), next(d.right)]);
    default:
      return [schema];
  }
}

function merge(parts: Array<Schema[] | 'any'>): Schema[] | 'any' {
  return parts.includes('any') ? 'any' : (parts.flat() as Schema[]);
}

function child(schema: Schema, segment: PathSegment): Schema | undefined {
  const d = def(schema);
  const isIndex = typeof segment === 'number';
  switch (d.type) {
    case 'object': {
      if (!isIndex && d.shape && Object.hasOwn(d.shape, segment)) return d.shape[segment];
      const catchall = d.catchall;
      return catchall && def(catchall).type !== 'never' ? catchall : undefined;
    }
    case 'record':
      return isIndex ? undefined : d.valueType;
    case 'array':
      if (segment === 'length') return LENGTH_SCHEMA;
      return isIndex || segment === EACH_SEGMENT ? d.element : undefined;
    case 'tuple':
      if (!isIndex) return undefined;
      return d.items?.[segment] ?? d.rest ?? undefined;
    default:
      return undefined;
  }
}

/** Names what a value is, for messages: "an object with fields a, b", "a number". */
export function describeShape(shape: SchemaShape): string {
  if (shape === 'any') return 'anything';
  const article = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);
  const kinds = new Set(
    shape.map((s) => {
      const d = def(s);
      const fields = d.type === 'object' ? Object.keys(d.shape ?? {}) : [];
      return fields.length > 0 ? `an object with fields ${fields.join(', ')}` : article(d.type);
    }),
  );
  return [...kinds].join(' or ');
}

/** Follows `path` from `start`; fails at the first segment no alternative has. */
export function walkSchema(start: SchemaShape, path: readonly PathSegment[]): SchemaWalk {
  let shape: SchemaShape = start;
  let projected = false;
  for (let index = 0; index < path.length; index++) {
    if (shape === 'any') return { ok: true, shape, projected };
    const segment = path[index] as PathSegment;
    const alternatives = merge(shape.map((s) => concrete(s)));
    if (alternatives === 'any') return { ok: true, shape: 'any', projected };
    const next = alternatives.map((s) => child(s, segment)).filter((s): s is Schema => s !== undefined);
    if (next.length === 0) return { ok: false, index, found: describeShape(alternatives) };
    if (segment === EACH_SEGMENT) projected = true;
    shape = next;
  }
  return { ok: true, shape, projected };
}

/** The element shape when the walked value is a list, or undefined when it cannot be one. */
export function listElement(walk: { shape: SchemaShape; projected: boolean }): SchemaShape | undefined {
  if (walk.projected || walk.shape === 'any') return walk.shape;
  const alternatives = merge(walk.shape.map((s) => concrete(s)));
  if (alternatives === 'any') return 'any';
  const elements = alternatives.flatMap((s) => {
    const d = def(s);
    if (d.type === 'array' && d.element) return [d.element];
    if (d.type === 'tuple') return [...(d.items ?? []), ...(d.rest ? [d.rest] : [])];
    return [];
  });
  return elements.length > 0 ? elements : undefined;
}

/** A schema for each run input type, so references into run inputs are checked the same way. */
export function runInputShape(type: string): SchemaShape {
  switch (type) {
    case 'string':
      return [z.string()];
    case 'number':
    case 'integer':
      return [z.number()];
    case 'boolean':
      return [z.boolean()];
    case 'array':
      return [z.array(z.unknown())];
    default:
      return 'any';
  }
}

const KIND_OF_TYPE: Record<string, string> = {
  string: 'string',
  enum: 'string',
  template_literal: 'string',
  number: 'number',
  bigint: 'number',
  boolean: 'boolean',
  array: 'array',
  tuple: 'array',
  object: 'object',
  record: 'object',
  null: 'null',
};

/**
 * The JSON kinds (string, number, boolean, array, object, null) a value of this shape can have,
 * or 'any' when that is not known; used to catch a list fed into a number field and the like.
 */
export function jsonKinds(shape: SchemaShape): Set<string> | 'any' {
  if (shape === 'any') return 'any';
  const alternatives = merge(shape.map((s) => concrete(s)));
  if (alternatives === 'any') return 'any';
  const kinds = new Set<string>();
  for (const schema of alternatives) {
    const d = def(schema) as LooseDef & { values?: unknown[] };
    if (d.type === 'literal') {
      for (const v of d.values ?? []) kinds.add(v === null ? 'null' : typeof v);
      continue;
    }
    const kind = KIND_OF_TYPE[d.type];
    if (!kind) return 'any';
    kinds.add(kind);
  }
  return kinds;
}

/** One field of an object a value may be: its name and what it is ("string", "number", …). */
export interface ShapeField {
  name: string;
  type: string;
}

/**
 * The fields the value may have, in declaration order, each with its kind(s) joined by " or "
 * ("any" when unknown). A value that is no object (or is unknown) has none.
 */
export function shapeFields(shape: SchemaShape): ShapeField[] {
  if (shape === 'any') return [];
  const alternatives = merge(shape.map((s) => concrete(s)));
  if (alternatives === 'any') return [];
  const fields = new Map<string, Set<string>>();
  for (const s of alternatives) {
    const d = def(s);
    if (d.type !== 'object') continue;
    for (const [name, field] of Object.entries(d.shape ?? {})) {
      const kinds = fields.get(name) ?? new Set<string>();
      const inner = concrete(field);
      if (inner === 'any') kinds.add('any');
      else for (const k of inner) kinds.add(def(k).type);
      fields.set(name, kinds);
    }
  }
  return [...fields].map(([name, kinds]) => ({ name, type: [...kinds].join(' or ') }));
}
