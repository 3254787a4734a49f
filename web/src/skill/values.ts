/**
 * Form values ⇄ request items (pure). A form value is a string per field (a boolean for
 * checkboxes), keyed by the field's path; {@link toRequestItem} turns them into the JSON item
 * and runs the checks the schema states (required, bounds, lengths, patterns, enums, counts).
 */
import { leafFields, type Field } from './fields.js';

export type FormValues = Record<string, string | boolean>;

/** Initial values: the skill's defaults where given, else empty. */
export function initialValues(fields: Field[], defaults: Record<string, unknown>): FormValues {
  const out: FormValues = {};
  for (const f of leafFields(fields)) {
    const value = f.key
      .split('.')
      .reduce<unknown>(
        (v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined),
        defaults,
      );
    out[f.key] = fromJson(f, value);
  }
  return out;
}

function fromJson(f: Field, value: unknown): string | boolean {
  if (f.kind === 'boolean') return value === true;
  if (value === undefined || value === null) return '';
  if (f.kind === 'list' && Array.isArray(value)) return value.join(', ');
  if (f.kind === 'json') return JSON.stringify(value, null, 2);
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
}

type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

function checkNumber(f: Field, n: number): string | null {
  if (!Number.isFinite(n)) return 'must be a number';
  if ((f.kind === 'integer' || f.itemType === 'integer') && !Number.isInteger(n))
    return 'must be a whole number';
  if (f.min !== undefined && n < f.min) return `must be at least ${f.min}`;
  if (f.max !== undefined && n > f.max) return `must be at most ${f.max}`;
  if (f.exclusiveMin !== undefined && n <= f.exclusiveMin) return `must be greater than ${f.exclusiveMin}`;
  if (f.exclusiveMax !== undefined && n >= f.exclusiveMax) return `must be less than ${f.exclusiveMax}`;
  return null;
}

function checkString(f: Field, s: string): string | null {
  if (f.minLength !== undefined && s.length < f.minLength)
    return `must have at least ${f.minLength} characters`;
  if (f.maxLength !== undefined && s.length > f.maxLength)
    return `must have at most ${f.maxLength} characters`;
  if (f.pattern !== undefined && !new RegExp(f.pattern, 'u').test(s))
    return 'does not have the expected form';
  return null;
}

function parseScalar(f: Field, text: string, type: string): Parsed {
  if (type === 'number' || type === 'integer') {
    const n = text === '' ? NaN : Number(text);
    const problem = checkNumber(f, n);
    return problem ? { ok: false, message: problem } : { ok: true, value: n };
  }
  const problem = checkString(f, text);
  return problem ? { ok: false, message: problem } : { ok: true, value: text };
}

function parse(f: Field, raw: string | boolean): Parsed | null {
  if (f.kind === 'boolean') return { ok: true, value: raw === true };
  const text = String(raw).trim();
  if (text === '') return f.required ? { ok: false, message: 'is required' } : null;
  switch (f.kind) {
    case 'enum': {
      const option = f.options?.find((o) => String(o) === text);
      return option === undefined
        ? { ok: false, message: 'must be one of the options' }
        : { ok: true, value: option };
    }
    case 'list': {
      const items = text
        .split(/[,\n]/)
        .map((s) => s.trim())
        .filter(Boolean);
      if (f.minItems !== undefined && items.length < f.minItems)
        return { ok: false, message: `needs at least ${f.minItems} value(s)` };
      if (f.maxItems !== undefined && items.length > f.maxItems)
        return { ok: false, message: `takes at most ${f.maxItems} value(s)` };
      const values: unknown[] = [];
      for (const item of items) {
        const p = parseScalar(f, item, f.itemType ?? 'string');
        if (!p.ok) return { ok: false, message: `each value ${p.message}` };
        values.push(p.value);
      }
      return { ok: true, value: values };
    }
    case 'json':
      try {
        return { ok: true, value: JSON.parse(text) as unknown };
      } catch {
        return { ok: false, message: 'must be valid JSON' };
      }
    default:
      return parseScalar(f, text, f.kind);
  }
}

/** The request item for one form, or the problems keyed by field path. */
export function toRequestItem(
  fields: Field[],
  values: FormValues,
): { item: Record<string, unknown>; errors: Record<string, string> } {
  const item: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of leafFields(fields)) {
    const parsed = parse(f, values[f.key] ?? '');
    if (parsed === null) continue;
    if (!parsed.ok) {
      errors[f.key] = parsed.message;
      continue;
    }
    const path = f.key.split('.');
    const last = path.pop() as string;
    let target = item;
    for (const k of path) target = (target[k] ??= {}) as Record<string, unknown>;
    target[last] = parsed.value;
  }
  return { item, errors };
}
