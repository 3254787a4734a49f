/** One form control for a schema field: input, number, checkbox, select, list or JSON textarea. */
import type { Field } from './fields.js';
import { optionLabel } from './labels.js';

interface Props {
  field: Field;
  /** Unique per request: `r<index>-<key>`. */
  id: string;
  value: string | boolean;
  error: string | undefined;
  onChange: (value: string | boolean) => void;
}

function hint(field: Field): string {
  const parts: string[] = [];
  if (field.description) parts.push(field.description);
  if (field.kind === 'list') parts.push('Separate values with commas.');
  if (field.kind === 'json') parts.push('JSON.');
  return parts.join(' ');
}

export function FieldInput({ field, id, value, error, onChange }: Props) {
  const text = typeof value === 'string' ? value : '';
  const described = [hint(field) ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const common = {
    id,
    name: field.key,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
    'aria-required': field.required || undefined,
  };
  let control;
  if (field.kind === 'boolean')
    control = (
      <input
        {...common}
        type="checkbox"
        checked={value === true}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
    );
  else if (field.kind === 'enum')
    control = (
      <select {...common} value={text} onChange={(e) => onChange(e.currentTarget.value)}>
        {field.required ? null : <option value="">(not set)</option>}
        {(field.options ?? []).map((o) => (
          <option key={String(o)} value={String(o)}>
            {optionLabel(o)}
          </option>
        ))}
      </select>
    );
  else if (field.kind === 'json')
    control = <textarea {...common} rows={4} value={text} onInput={(e) => onChange(e.currentTarget.value)} />;
  else
    control = (
      <input
        {...common}
        type={field.kind === 'number' || field.kind === 'integer' ? 'number' : 'text'}
        step={field.kind === 'integer' ? 1 : field.kind === 'number' ? 'any' : undefined}
        inputMode={field.kind === 'list' && field.itemType !== 'string' ? 'decimal' : undefined}
        value={text}
        onInput={(e) => onChange(e.currentTarget.value)}
      />
    );
  return (
    <div class={`field field-${field.kind}`}>
      <label for={id}>
        {field.label}
        {field.required ? (
          <span class="required" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
        {field.required ? <span class="visually-hidden"> (required)</span> : null}
      </label>
      {control}
      {hint(field) ? (
        <small id={`${id}-hint`} class="field-hint">
          {hint(field)}
        </small>
      ) : null}
      {error ? (
        <small id={`${id}-error`} class="field-error">
          {error}
        </small>
      ) : null}
    </div>
  );
}
