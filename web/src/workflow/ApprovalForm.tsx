/**
 * One approval's form: its title, a line about it, the payload fields its step declares, and
 * Approve / Reject. A rejection may leave required fields empty. Fields the API refuses show
 * their messages in place (`payload.<name>` paths); anything else shows as an alert.
 */
import type { ComponentChildren } from 'preact';
import type { ApprovalLinkView } from '../../../sdk/generated.js';
import { ApiError, errorMessage } from '../api.js';
import { Alert } from '../ui.js';
import { TypedFields } from './TypedFields.js';
import { useTypedForm, type Refusal } from './use-typed-form.js';

export type Decision = 'approved' | 'rejected';
type Specs = ApprovalLinkView['payload'];

/** A field's message from the API's issues (`payload.<name>`), else the whole message. */
function issuesOf(err: unknown): Refusal {
  const issues = err instanceof ApiError ? err.details.issues : undefined;
  const fields: Record<string, string> = {};
  if (Array.isArray(issues))
    for (const i of issues as Array<{ path?: string; message?: string }>) {
      const name = i.path?.startsWith('payload.') ? i.path.slice('payload.'.length) : undefined;
      if (name) fields[name] = i.message ?? 'Not accepted.';
    }
  return { fields, message: errorMessage(err) };
}

export function ApprovalForm(props: {
  /** Unique on the page; prefixes the ids of the title and fields. */
  id: string;
  title: string;
  specs: Specs;
  /** The line under the title (run, step, expiry). */
  children: ComponentChildren;
  send: (decision: Decision, payload: Record<string, unknown>) => Promise<unknown>;
  onDecided: (decision: Decision) => void;
}) {
  const { id, specs } = props;
  const { values, errors, failure, busy, set, submit } = useTypedForm(specs);
  // A rejection may leave required fields empty.
  const decide = (decision: Decision) =>
    submit(
      (payload) => props.send(decision, payload).then(() => props.onDecided(decision)),
      issuesOf,
      decision === 'approved'
        ? specs
        : Object.fromEntries(Object.entries(specs).map(([n, s]) => [n, { ...s, required: false }])),
    );
  return (
    <form
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        decide('approved');
      }}
    >
      <h2 id={`${id}-title`}>{props.title}</h2>
      <p class="hint">{props.children}</p>
      <TypedFields idPrefix={`${id}-`} specs={specs} values={values} errors={errors} onChange={set} />
      <div class="buttons">
        <button type="submit" disabled={busy}>
          Approve
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={() => decide('rejected')}>
          Reject
        </button>
      </div>
      <Alert message={failure} />
    </form>
  );
}
