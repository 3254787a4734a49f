/** Run-form values → the `inputs` of POST /v1/workflows/{id}/runs, by declared type. Pure, unit-tested. */
import type { WorkflowDefinition } from '../../../sdk/generated.js';

export type InputSpec = WorkflowDefinition['inputs'][string];
/** What a field holds: text for most types, a flag for booleans. */
export type FieldValue = string | boolean;

/** The field's starting value: the declared default, else empty. */
export function initialValue(spec: InputSpec): FieldValue {
  if (spec.type === 'boolean') return spec.default === true;
  if (spec.default === undefined) return '';
  const value = spec.default;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
}

type Parsed = { ok: true; value: unknown } | { ok: true; omit: true } | { ok: false; message: string };

/** One field. An empty optional field is left out, so the server applies the declared default. */
export function parseValue(spec: InputSpec, raw: FieldValue): Parsed {
  if (spec.type === 'boolean') return { ok: true, value: raw === true };
  const text = String(raw).trim();
  if (text === '') return spec.required ? { ok: false, message: 'Required.' } : { ok: true, omit: true };
  switch (spec.type) {
    case 'string':
      return { ok: true, value: String(raw) };
    case 'number':
    case 'integer': {
      const n = Number(text);
      if (!Number.isFinite(n)) return { ok: false, message: 'Enter a number.' };
      if (spec.type === 'integer' && !Number.isInteger(n))
        return { ok: false, message: 'Enter a whole number.' };
      return { ok: true, value: n };
    }
    case 'array':
    case 'object': {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return {
          ok: false,
          message: `Enter JSON (${spec.type === 'array' ? 'a list in [ ]' : 'an object in { }'}).`,
        };
      }
      const isArray = Array.isArray(value);
      const fits = spec.type === 'array' ? isArray : typeof value === 'object' && value !== null && !isArray;
      return fits
        ? { ok: true, value }
        : { ok: false, message: `Enter ${spec.type === 'array' ? 'a list' : 'an object'}.` };
    }
  }
}

/** Every field at once: the inputs, or the message of each field that is wrong. */
export function buildInputs(
  specs: WorkflowDefinition['inputs'],
  values: Record<string, FieldValue>,
): { ok: true; inputs: Record<string, unknown> } | { ok: false; errors: Record<string, string> } {
  const inputs: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const parsed = parseValue(spec, values[name] ?? initialValue(spec));
    if (!parsed.ok) errors[name] = parsed.message;
    else if ('value' in parsed) inputs[name] = parsed.value;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, inputs };
}
