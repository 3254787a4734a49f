/** The run form: one labelled field per declared input, typed by its declared type. */
import { useState } from 'preact/hooks';
import type { WorkflowDefinition } from '../../../sdk/generated.js';
import { ApiError, errorMessage } from '../api.js';
import { startRun } from './api.js';
import { buildInputs, initialValue, type FieldValue } from './inputs.js';
import { TypedFields } from './TypedFields.js';
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
      <TypedFields idPrefix="input-" specs={specs} values={values} errors={errors} onChange={set} />
      <button type="submit" disabled={busy}>
        {busy ? 'Starting…' : 'Run workflow'}
      </button>
      <Alert message={failure} />
    </form>
  );
}
