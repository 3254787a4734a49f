/** The run form: one labelled field per declared input, typed by its declared type. */
import type { WorkflowDefinition } from '../../../sdk/generated.js';
import { ApiError, errorMessage } from '../api.js';
import { startRun } from './api.js';
import { TypedFields } from './TypedFields.js';
import { useTypedForm, type Refusal } from './use-typed-form.js';
import { Alert } from '../ui.js';

interface Props {
  auth: string;
  definition: WorkflowDefinition;
  onStarted: (taskId: string) => void;
}

/** A refused run: the API's issues in one line (`path: message; …`), else its message. */
function refusalOf(err: unknown): Refusal {
  const issues = err instanceof ApiError ? err.details.issues : undefined;
  return {
    fields: {},
    message:
      Array.isArray(issues) && issues.length > 0
        ? issues
            .map((i: { path?: string; message?: string }) => `${i.path ?? ''}: ${i.message ?? ''}`)
            .join('; ')
        : errorMessage(err),
  };
}

export function RunForm(props: Props) {
  const specs = props.definition.inputs;
  const { values, errors, failure, busy, set, submit } = useTypedForm(specs);
  return (
    <form
      class="run-form"
      aria-labelledby="run-title"
      onSubmit={(e) => {
        e.preventDefault();
        submit(
          (inputs) =>
            startRun(props.auth, props.definition.id, inputs).then((r) => props.onStarted(r.task_id)),
          refusalOf,
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
