/**
 * Values for a skill's schema, for the compiler's property tests: a zod schema becomes JSON Schema
 * (`z.toJSONSchema`) and that becomes a fast-check arbitrary. Inputs use the input view (defaults
 * optional), step outputs the output view. Free text carries the marker `qz`, so a test can
 * check that no diagnostic quotes it.
 */
import fc from 'fast-check';
import { z } from 'zod';

/** The marker every generated piece of author text holds. */
export const MARKER = 'qz';

/** The part of JSON Schema that zod emits for the catalog's skills. */
interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

/** The JSON Schema of a zod schema, as the input or the output side sees it. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
}

/** Free text of `min`-`max` characters that holds the marker (when it fits). */
export function markedText(min = 1, max = 40): fc.Arbitrary<string> {
  if (max < MARKER.length) return fc.string({ minLength: min, maxLength: max });
  const rest = Math.min(max, 40) - MARKER.length;
  return fc
    .tuple(fc.string({ maxLength: rest }), fc.string({ maxLength: rest }))
    .map(([a, b]) => (a + MARKER + b).slice(0, Math.min(max, 40)))
    .filter((s) => s.length >= min && s.trim() !== '');
}

const MAX_DEPTH = 6;

/**
 * Realistic values for free-text fields whose rules JSON Schema cannot state (refinements), so
 * that a good share of generated inputs compile; the generic text still covers the rest.
 */
const FIELD_HINTS: Record<string, fc.Arbitrary<unknown>> = {
  query: fc.stringMatching(/^[a-z][a-z0-9]{1,14}$/),
  country: fc.constantFrom('DE', 'US', 'fr', 'GB'),
  tlds: fc.array(fc.constantFrom('com', 'de', 'net', '.org', 'io'), { maxLength: 3 }),
  language: fc.constantFrom('en', 'de', 'fr', 'pt_BR', 'de-DE'),
  title: fc.stringMatching(/^[A-Z][a-z]{1,12}( [A-Z][a-z]{1,8})?$/),
};

/** An arbitrary of values that match `schema` (patterns, ranges, lengths, enums, unions). */
export function arbitraryOf(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return fc.oneof(...union.map((s) => arbitraryOf(s, depth + 1)));
  if (schema.allOf?.[0]) return arbitraryOf(schema.allOf[0], depth + 1);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((type) => arbitraryOf({ ...schema, type }, depth)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: lowerBound(schema, 1, -1000), max: upperBound(schema, 1, 1000) });
    case 'number':
      return fc
        .double({ min: lowerBound(schema, 0.001, -1000), max: upperBound(schema, 0.001, 1000), noNaN: true })
        .map((n) => (Object.is(n, -0) ? 0 : n));
    case 'string':
      return stringOf(schema);
    case 'array':
      return arrayOf(schema, depth);
    case 'object':
      return objectOf(schema, depth);
    default:
      return depth >= MAX_DEPTH ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  }
}

function lowerBound(schema: JsonSchema, step: number, fallback: number): number {
  if (schema.exclusiveMinimum !== undefined) return schema.exclusiveMinimum + step;
  return Math.max(schema.minimum ?? fallback, -Number.MAX_SAFE_INTEGER);
}

function upperBound(schema: JsonSchema, step: number, fallback: number): number {
  if (schema.exclusiveMaximum !== undefined) return schema.exclusiveMaximum - step;
  return Math.min(schema.maximum ?? fallback, Number.MAX_SAFE_INTEGER);
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 60;
  if (schema.pattern) {
    return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= min && s.length <= max);
  }
  return min === 0 ? fc.oneof(fc.constant(''), markedText(1, max)) : markedText(min, max);
}

function arrayOf(schema: JsonSchema, depth: number): fc.Arbitrary<unknown[]> {
  if (schema.prefixItems) return fc.tuple(...schema.prefixItems.map((s) => arbitraryOf(s, depth + 1)));
  const minLength = schema.minItems ?? 0;
  const maxLength = Math.min(schema.maxItems ?? 3, Math.max(minLength, 3));
  const items = depth >= MAX_DEPTH ? fc.constant(null) : arbitraryOf(schema.items ?? {}, depth + 1);
  return fc.array(items, { minLength, maxLength });
}

function objectOf(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  if (Object.keys(properties).length === 0) {
    return depth >= MAX_DEPTH
      ? fc.constant({})
      : fc.dictionary(markedText(1, 12), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, value] of Object.entries(properties)) {
    const hint = FIELD_HINTS[key];
    model[key] =
      hint && value.type !== 'object'
        ? fc.oneof({ weight: 4, arbitrary: hint }, arbitraryOf(value, depth + 1))
        : arbitraryOf(value, depth + 1);
  }
  return (
    fc.record(model, { requiredKeys: schema.required ?? [] }) as fc.Arbitrary<Record<string, unknown>>
  ).map(ordered);
}

/** Puts `min`/`max` pairs (`vinMin`, `vinMax`) in order, a rule JSON Schema cannot state. */
function ordered(value: Record<string, unknown>): Record<string, unknown> {
  const { vinMin, vinMax } = value;
  if (typeof vinMin === 'number' && typeof vinMax === 'number' && vinMin > vinMax) {
    return { ...value, vinMin: vinMax, vinMax: vinMin };
  }
  return value;
}

/** One readable location in a step's output: how to write it and what it holds. */
export interface OutputPath {
  /** Dotted path after the step, e.g. `results.0.domain` (`results[].domain` when projected). */
  path: string;
  /** The node's schema: lists can be iterated, objects give `#each` fields. */
  schema: JsonSchema;
  /** Whether the path holds a `[]` projection (allowed in `$nodes` and `if` only). */
  projected: boolean;
}

/** Every readable path of an output schema, down to `maxDepth` segments. */
export function outputPaths(schema: JsonSchema, maxDepth = 4): OutputPath[] {
  const out: OutputPath[] = [];
  const walk = (node: JsonSchema, path: string, projected: boolean, depth: number): void => {
    if (path !== '') out.push({ path, schema: node, projected });
    if (depth >= maxDepth) return;
    const join = (segment: string) => (path === '' ? segment : `${path}.${segment}`);
    for (const branch of node.anyOf ?? node.oneOf ?? []) walk(branch, path, projected, depth);
    for (const [key, child] of Object.entries(node.properties ?? {}))
      walk(child, join(key), projected, depth + 1);
    if (node.items) {
      walk(node.items, join('0'), projected, depth + 1);
      if (path !== '') walk(node.items, `${path}[]`, true, depth + 1);
      out.push({ path: join('length'), schema: { type: 'integer' }, projected });
    }
  };
  walk(schema, '', false, 0);
  const seen = new Set<string>();
  return out.filter((p) => !seen.has(p.path) && (seen.add(p.path), true));
}

/** Whether a schema describes a list. */
export function isList(schema: JsonSchema): boolean {
  return schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'));
}

export type { JsonSchema };
