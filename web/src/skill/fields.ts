/**
 * A skill's request-item JSON Schema turned into form field descriptors (pure, no DOM). Generic:
 * strings, numbers and integers with their bounds, booleans, enums, arrays of strings or
 * numbers, and objects one level deep; anything else becomes a JSON text field.
 */
import { labelOf } from './labels.js';

/** How a field is edited. `list` is one comma- or line-separated input; `json` a JSON textarea. */
export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'list' | 'json' | 'object';

/** One form field of a request item. `key` is its path in the item (`a` or `a.b`). */
export interface Field {
  key: string;
  name: string;
  /** What the form calls it: the schema's `title`, else the name in words. */
  label: string;
  kind: FieldKind;
  required: boolean;
  description?: string;
  /** `enum` fields: the allowed values. */
  options?: (string | number)[];
  /** `list` fields: the item type. */
  itemType?: 'string' | 'number' | 'integer';
  min?: number;
  max?: number;
  exclusiveMin?: number;
  exclusiveMax?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  /** `object` fields: their properties (one level; deeper objects are `json`). */
  fields?: Field[];
}

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** `type` as one name; `["string","null"]` counts as `string`; anything else undefined. */
function typeOf(schema: Schema): string | undefined {
  const t = schema.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) {
    const named = t.filter((x) => x !== 'null');
    return named.length === 1 && typeof named[0] === 'string' ? named[0] : undefined;
  }
  return undefined;
}

function bounds(schema: Schema): Partial<Field> {
  const out: Partial<Field> = {};
  const pairs: [keyof Field, unknown][] = [
    ['min', schema.minimum],
    ['max', schema.maximum],
    ['exclusiveMin', schema.exclusiveMinimum],
    ['exclusiveMax', schema.exclusiveMaximum],
    ['minLength', schema.minLength],
    ['maxLength', schema.maxLength],
    ['minItems', schema.minItems],
    ['maxItems', schema.maxItems],
  ];
  for (const [k, v] of pairs) if (num(v) !== undefined) (out as Record<string, unknown>)[k] = v;
  if (typeof schema.pattern === 'string') out.pattern = schema.pattern;
  return out;
}

function kindOf(schema: Schema, depth: number): Pick<Field, 'kind' | 'options' | 'itemType'> {
  if (Array.isArray(schema.enum) && schema.enum.every((o) => typeof o === 'string' || typeof o === 'number'))
    return { kind: 'enum', options: schema.enum };
  const type = typeOf(schema);
  if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean')
    return { kind: type };
  if (type === 'array' && isObject(schema.items) && !Array.isArray(schema.items.enum)) {
    const item = typeOf(schema.items);
    if (item === 'string' || item === 'number' || item === 'integer') return { kind: 'list', itemType: item };
  }
  if (type === 'object' && depth === 0 && isObject(schema.properties)) return { kind: 'object' };
  return { kind: 'json' };
}

function fieldsOf(schema: Schema, prefix: string, depth: number): Field[] {
  const props = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.entries(props).map(([name, raw]) => {
    const prop = isObject(raw) ? raw : {};
    const key = prefix ? `${prefix}.${name}` : name;
    const kind = kindOf(prop, depth);
    const field: Field = {
      key,
      name,
      label: labelOf(name, prop.title),
      required: required.has(name),
      ...kind,
      ...bounds(prop),
    };
    if (typeof prop.description === 'string') field.description = prop.description;
    if (kind.kind === 'list' && isObject(prop.items)) {
      const item = bounds(prop.items);
      for (const k of [
        'min',
        'max',
        'exclusiveMin',
        'exclusiveMax',
        'minLength',
        'maxLength',
        'pattern',
      ] as const)
        if (item[k] !== undefined) (field as unknown as Record<string, unknown>)[k] = item[k];
    }
    if (kind.kind === 'object') field.fields = fieldsOf(prop, key, depth + 1);
    return field;
  });
}

/** The fields of one request item, in the schema's property order. */
export function schemaFields(itemSchema: Record<string, unknown>): Field[] {
  return fieldsOf(itemSchema, '', 0);
}

/** `request_schema.properties.requests.maxItems` (at most 5), or 5. */
export function maxRequests(requestSchema: Record<string, unknown>): number {
  const props = isObject(requestSchema.properties) ? requestSchema.properties : {};
  const requests = isObject(props.requests) ? props.requests : {};
  const max = num(requests.maxItems);
  return Math.max(1, Math.min(5, max ?? 5));
}

/** Every leaf field (objects flattened to their properties). */
export function leafFields(fields: Field[]): Field[] {
  return fields.flatMap((f) => (f.kind === 'object' ? leafFields(f.fields ?? []) : [f]));
}
