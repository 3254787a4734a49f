/**
 * The request form generated from the skill's request-item schema: one fieldset per request
 * (1 to `maxRequests`), client checks where the schema states them, and the API's
 * `INVALID_PARAMETER` issues shown next to their fields.
 */
import { useState } from 'preact/hooks';
import { FieldInput } from './FieldInput.js';
import type { Field } from './fields.js';
import { initialValues, toRequestItem, type FormValues } from './values.js';

interface Props {
  fields: Field[];
  defaults: Record<string, unknown>;
  maxRequests: number;
  /** Why only `maxRequests` requests are allowed, when it is not the schema's own limit. */
  limitNote?: string;
  busy: boolean;
  /** Issues from the API, keyed `<request index>:<field key>`. */
  serverIssues: Record<string, string>;
  onRun: (requests: Record<string, unknown>[]) => void;
}

function FieldGroup(props: {
  fields: Field[];
  index: number;
  values: FormValues;
  errors: Record<string, string>;
  onChange: (key: string, value: string | boolean) => void;
}) {
  return (
    <>
      {props.fields.map((f) =>
        f.kind === 'object' ? (
          <fieldset key={f.key} class="nested">
            <legend>{f.label}</legend>
            <FieldGroup {...props} fields={f.fields ?? []} />
          </fieldset>
        ) : (
          <FieldInput
            key={f.key}
            field={f}
            id={`r${props.index}-${f.key.replace(/\./g, '-')}`}
            value={props.values[f.key] ?? ''}
            error={props.errors[`${props.index}:${f.key}`]}
            onChange={(v) => props.onChange(f.key, v)}
          />
        ),
      )}
    </>
  );
}

export function SkillForm(props: Props) {
  const [forms, setForms] = useState<FormValues[]>(() => [initialValues(props.fields, props.defaults)]);
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const errors = { ...props.serverIssues, ...clientErrors };
  const count = Math.min(forms.length, props.maxRequests);

  const submit = (e: Event) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    const items = forms.slice(0, count).map((values, i) => {
      const { item, errors: problems } = toRequestItem(props.fields, values);
      for (const [k, m] of Object.entries(problems)) found[`${i}:${k}`] = m;
      return item;
    });
    setClientErrors(found);
    if (Object.keys(found).length === 0) props.onRun(items);
  };

  return (
    <form class="skill-form" onSubmit={submit} noValidate>
      {forms.slice(0, count).map((values, i) => (
        <fieldset key={i} class="request">
          <legend>Request {i + 1}</legend>
          <FieldGroup
            fields={props.fields}
            index={i}
            values={values}
            errors={errors}
            onChange={(key, value) =>
              setForms((all) => all.map((v, j) => (j === i ? { ...v, [key]: value } : v)))
            }
          />
          {count > 1 ? (
            <button
              type="button"
              class="secondary"
              onClick={() => setForms((all) => all.filter((_, j) => j !== i))}
            >
              Remove request {i + 1}
            </button>
          ) : null}
        </fieldset>
      ))}
      {Object.keys(clientErrors).length > 0 ? (
        <p role="alert" class="error">
          Some fields need attention.
        </p>
      ) : null}
      <div class="form-actions">
        {count < props.maxRequests ? (
          <button
            type="button"
            class="secondary"
            onClick={() =>
              setForms((all) => [...all.slice(0, count), initialValues(props.fields, props.defaults)])
            }
          >
            Add request
          </button>
        ) : null}
        <button type="submit" disabled={props.busy}>
          {props.busy ? 'Running…' : 'Run'}
        </button>
      </div>
      <p class="hint">
        {count} of at most {props.maxRequests} request{props.maxRequests === 1 ? '' : 's'}.
        {props.limitNote ? ` ${props.limitNote}` : ''}
      </p>
    </form>
  );
}
