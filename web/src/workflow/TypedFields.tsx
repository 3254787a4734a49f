/** One labelled field per declared typed field (run inputs, an approval's payload), by type. */
import type { FieldValue, InputSpec } from './inputs.js';

interface Props {
  /** Prefix of each field's element id (unique on the page). */
  idPrefix: string;
  specs: Record<string, InputSpec>;
  values: Record<string, FieldValue>;
  errors: Record<string, string>;
  onChange: (name: string, value: FieldValue) => void;
}

export function TypedFields(props: Props) {
  return (
    <>
      {Object.entries(props.specs).map(([name, spec]) => {
        const id = `${props.idPrefix}${name}`;
        const err = props.errors[name];
        const describedBy = [spec.description ? `${id}-help` : '', err ? `${id}-error` : '']
          .filter(Boolean)
          .join(' ');
        return (
          <div class="field" key={name}>
            <label for={id}>
              {name}
              {spec.required ? <span aria-hidden="true"> *</span> : null}{' '}
              <span class="type">({spec.type})</span>
            </label>
            {spec.type === 'boolean' ? (
              <input
                id={id}
                type="checkbox"
                checked={props.values[name] === true}
                onChange={(e) => props.onChange(name, e.currentTarget.checked)}
                aria-describedby={describedBy || undefined}
              />
            ) : spec.type === 'array' || spec.type === 'object' ? (
              <textarea
                id={id}
                rows={3}
                value={String(props.values[name] ?? '')}
                onInput={(e) => props.onChange(name, e.currentTarget.value)}
                required={spec.required}
                aria-invalid={err ? 'true' : undefined}
                aria-describedby={describedBy || undefined}
              />
            ) : (
              <input
                id={id}
                type={spec.type === 'string' ? 'text' : 'number'}
                step={spec.type === 'integer' ? 1 : 'any'}
                value={String(props.values[name] ?? '')}
                onInput={(e) => props.onChange(name, e.currentTarget.value)}
                required={spec.required}
                aria-invalid={err ? 'true' : undefined}
                aria-describedby={describedBy || undefined}
              />
            )}
            {spec.description ? (
              <p class="hint" id={`${id}-help`}>
                {spec.description}
              </p>
            ) : null}
            {err ? (
              <p class="error" id={`${id}-error`}>
                {err}
              </p>
            ) : null}
          </div>
        );
      })}
    </>
  );
}
