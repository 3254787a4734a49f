/**
 * A small JSON Schema (draft 2020-12, as zod's `toJSONSchema` and fastify-swagger emit it) to
 * TypeScript type printer for the SDK's generated types. It covers what our schemas use:
 * objects, arrays, tuples (prefixItems), enums, consts, type lists, anyOf/oneOf/allOf and local
 * `$ref`s into `$defs`/`components.schemas`. Anything else prints as `unknown`.
 */

/** A JSON Schema node (only the keywords the printer reads are typed). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema | boolean;
  prefixItems?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  description?: string;
  nullable?: boolean;
  [key: string]: unknown;
}

/** Printer options. */
export interface PrintOptions {
  /** Resolves `$ref` values to a type name (already emitted elsewhere) or a schema to inline. */
  resolveRef?: (ref: string) => string | JsonSchema | undefined;
  /** `input`: properties with a `default` are optional (the API fills them). Default `output`. */
  io?: 'input' | 'output';
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name: string): string => (IDENT.test(name) ? name : JSON.stringify(name));
const indent = (text: string, by: string): string => text.replaceAll('\n', `\n${by}`);

function doc(schema: JsonSchema, pad: string): string {
  if (typeof schema.description !== 'string' || !schema.description.trim()) return '';
  const text = schema.description.replaceAll('*/', '*\\/').trim();
  return `${pad}/** ${indent(text, `${pad} * `)} */\n`;
}

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  if (unique.includes('unknown')) return 'unknown';
  return unique.length === 0 ? 'never' : unique.join(' | ');
}

function wrap(t: string): string {
  return /[|&]/.test(t) && !/^\{[\s\S]*\}$/.test(t) ? `(${t})` : t;
}

/** Prints the TypeScript type of `schema`; nested objects print multi-line. */
export function printType(
  schema: JsonSchema | boolean | undefined,
  opts: PrintOptions = {},
  pad = '',
): string {
  if (schema === undefined || schema === true) return 'unknown';
  if (schema === false) return 'never';
  if (schema.$ref) {
    const target = opts.resolveRef?.(schema.$ref);
    if (typeof target === 'string') return target;
    return target ? printType(target, opts, pad) : 'unknown';
  }
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map((v) => JSON.stringify(v)));
  if (schema.allOf) {
    // The schema's own type, intersected with what each member adds; a member that only constrains
    // (a pattern, say) adds nothing to the type.
    const { allOf, ...own } = schema;
    const parts = [
      ...(own.type !== undefined || own.properties ? [printType(own, opts, pad)] : []),
      ...allOf.map((s) => printType(s, opts, pad)),
    ].filter((part, i, all) => part !== 'unknown' && all.indexOf(part) === i);
    return parts.map(wrap).join(' & ') || 'unknown';
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return union(alternatives.map((s) => printType(s, opts, pad)));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return schema.properties ? printObject(schema, opts, pad) : 'unknown';
  const printed = union(types.map((t) => printOne(t, schema, opts, pad)));
  return schema.nullable === true ? union([printed, 'null']) : printed;
}

function printOne(type: string, schema: JsonSchema, opts: PrintOptions, pad: string): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      if (schema.prefixItems) {
        const items = schema.prefixItems.map((s) => printType(s, opts, pad));
        return `[${items.join(', ')}]`;
      }
      return `${wrap(printType(schema.items, opts, pad))}[]`;
    case 'object':
      return printObject(schema, opts, pad);
    default:
      return 'unknown';
  }
}

function printObject(schema: JsonSchema, opts: PrintOptions, pad: string): string {
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const inner = `${pad}  `;
  const lines: string[] = [];
  for (const [name, prop] of Object.entries(props)) {
    const optional = !required.has(name) || (opts.io === 'input' && 'default' in prop);
    lines.push(
      `${doc(prop, inner)}${inner}${key(name)}${optional ? '?' : ''}: ${printType(prop, opts, inner)};`,
    );
  }
  const extra = schema.additionalProperties;
  if (lines.length === 0 && typeof extra === 'object') {
    // A record (z.record): the values' own type.
    return `{\n${inner}[key: string]: ${printType(extra, opts, inner)};\n${pad}}`;
  }
  if (extra !== undefined && extra !== false) {
    // Always `unknown`: the declared properties must stay assignable to the index signature.
    lines.push(`${inner}[key: string]: unknown;`);
  } else if (extra === undefined && Object.keys(props).length === 0) {
    return 'Record<string, unknown>';
  }
  if (lines.length === 0) return extra === false ? 'Record<string, never>' : 'Record<string, unknown>';
  return `{\n${lines.join('\n')}\n${pad}}`;
}
