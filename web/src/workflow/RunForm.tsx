/** The run form: one labelled field per declared input, typed by its declared type. */
import { useState } from 'preact/hooks';
import type { WorkflowDefinition } from '../../../sdk/generated.js';
import { ApiError, errorMessage } from '../api.js';
import { startRun } from './api.js';
import { buildInputs, initialValue, type FieldValue } from './inputs.js';
import { Alert } from '../ui.js';

interface Props {
  apiKey: string;
  definition: WorkflowDefinition;
  onStarted: (taskId: string) => void;
}

export function RunForm(props: Props) {
  const specs = props.definition.inputs;
  const [values, setValues] = useState<Record<string, FieldValue>>(() =>
    Object.fromEntries(Object.entries(specs).map(([n, s]) => [n, initialValue(s)])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const set = (name: string, value: FieldValue) => setValues((v) => ({ ...v, [name]: value }));
  return (
    <form
      class="run-form"
      aria-labelledby="run-title"
      onSubmit={(e) => {
        e.preventDefault();
        const built = buildInputs(specs, values);
        if (!built.ok) {
          setErrors(built.errors);
          return;
        }
        setErrors({});
        setFailure(null);
        setBusy(true);
        startRun(props.apiKey, props.definition.id, built.inputs).then(
          (r) => {
            setBusy(false);
            props.onStarted(r.task_id);
          },
          (err: unknown) => {
            setBusy(false);
            const issues = err instanceof ApiError ? err.details.issues : undefined;
            setFailure(
              Array.isArray(issues) && issues.length > 0
                ? issues
                    .map((i: { path?: string; message?: string }) => `${i.path ?? ''}: ${i.message ?? ''}`)
                    .join('; ')
                : errorMessage(err),
            );
          },
        );
      }}
    >
      <h2 id="run-title">Run</h2>
      {Object.keys(specs).length === 0 ? <p>This workflow declares no inputs.</p> : null}
      {Object.entries(specs).map(([name, spec]) => {
        const id = `input-${name}`;
        const err = errors[name];
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
                checked={values[name] === true}
                onChange={(e) => set(name, e.currentTarget.checked)}
                aria-describedby={describedBy || undefined}
              />
            ) : spec.type === 'array' || spec.type === 'object' ? (
              <textarea
                id={id}
                rows={3}
                value={String(values[name] ?? '')}
                onInput={(e) => set(name, e.currentTarget.value)}
                required={spec.required}
                aria-invalid={err ? 'true' : undefined}
                aria-describedby={describedBy || undefined}
              />
            ) : (
              <input
                id={id}
                type={spec.type === 'string' ? 'text' : 'number'}
                step={spec.type === 'integer' ? 1 : 'any'}
                value={String(values[name] ?? '')}
                onInput={(e) => set(name, e.currentTarget.value)}
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
      <button type="submit" disabled={busy}>
        {busy ? 'Starting…' : 'Run workflow'}
      </button>
      <Alert message={failure} />
    </form>
  );
}
