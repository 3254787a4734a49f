/**
 * `#approvals`: the approvals your runs wait for, each with its title, run, expiry and a form for
 * the payload its step declares; Approve or Reject sends the decision, and the list reloads.
 */
import { useState } from 'preact/hooks';
import type { ApprovalList } from '../../../sdk/generated.js';
import { ApiError, errorMessage } from '../api.js';
import { dateTime } from '../task/timing.js';
import { Alert, LoadStatus } from '../ui.js';
import { decideApproval, listApprovals } from '../workflow/api.js';
import { buildInputs, initialValue, type FieldValue } from '../workflow/inputs.js';
import { TypedFields } from '../workflow/TypedFields.js';
import { useLoad } from '../workflow/use-load.js';

type Pending = ApprovalList['approvals'][number];

/** A field's message from the API's issues (`payload.<name>`), else the whole message. */
function issuesOf(err: unknown): { fields: Record<string, string>; message: string } {
  const issues = err instanceof ApiError ? err.details.issues : undefined;
  const fields: Record<string, string> = {};
  if (Array.isArray(issues))
    for (const i of issues as Array<{ path?: string; message?: string }>) {
      const name = i.path?.startsWith('payload.') ? i.path.slice('payload.'.length) : undefined;
      if (name) fields[name] = i.message ?? 'Not accepted.';
    }
  return { fields, message: errorMessage(err) };
}

function ApprovalCard(props: { apiKey: string; approval: Pending; onDecided: (text: string) => void }) {
  const { approval } = props;
  const specs = approval.payload;
  const [values, setValues] = useState<Record<string, FieldValue>>(() =>
    Object.fromEntries(Object.entries(specs).map(([n, s]) => [n, initialValue(s)])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const key = `${approval.run_id}-${approval.step_id}`;
  const decide = (decision: 'approved' | 'rejected') => {
    // A rejection may leave required fields empty.
    const fieldSpecs =
      decision === 'approved'
        ? specs
        : Object.fromEntries(Object.entries(specs).map(([n, s]) => [n, { ...s, required: false }]));
    const built = buildInputs(fieldSpecs, values);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    setFailure(null);
    setBusy(true);
    decideApproval(props.apiKey, approval.run_id, approval.step_id, decision, built.inputs).then(
      () => props.onDecided(`${decision === 'approved' ? 'Approved' : 'Rejected'}: ${approval.title}`),
      (err: unknown) => {
        setBusy(false);
        const { fields, message } = issuesOf(err);
        setErrors(fields);
        setFailure(message);
      },
    );
  };
  return (
    <li class="approval" data-approval={key}>
      <form
        aria-labelledby={`${key}-title`}
        onSubmit={(e) => {
          e.preventDefault();
          decide('approved');
        }}
      >
        <h2 id={`${key}-title`}>{approval.title}</h2>
        <p class="hint">
          Run <a href={`#tasks/${encodeURIComponent(approval.run_id)}`}>{approval.run_id}</a>, step{' '}
          {approval.step_id}; expires {dateTime(approval.expires_at)}.
        </p>
        <TypedFields
          idPrefix={`${key}-`}
          specs={specs}
          values={values}
          errors={errors}
          onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
        />
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
    </li>
  );
}

export function ApprovalsPage(props: { apiKey: string }) {
  const [round, setRound] = useState(0);
  const [done, setDone] = useState<string | null>(null);
  // Decided here: hidden even if the reloaded list still shows them (visibility follows shortly).
  const [decided, setDecided] = useState<ReadonlySet<string>>(new Set());
  const list = useLoad(() => listApprovals(props.apiKey), [props.apiKey, round]);
  const keyOf = (a: Pending) => `${a.run_id}-${a.step_id}`;
  const shown = list.state === 'ready' ? list.value.approvals.filter((a) => !decided.has(keyOf(a))) : [];
  return (
    <section aria-labelledby="approvals-title">
      <h1 id="approvals-title">Approvals</h1>
      {done ? (
        <p role="status" class="success">
          {done}
        </p>
      ) : null}
      <LoadStatus load={list} loading="Loading approvals…" />
      {list.state === 'ready' && shown.length === 0 ? <p>No run is waiting for your decision.</p> : null}
      {shown.length > 0 ? (
        <ul class="approvals">
          {shown.map((a) => (
            <ApprovalCard
              key={keyOf(a)}
              apiKey={props.apiKey}
              approval={a}
              onDecided={(text) => {
                setDone(text);
                setDecided((d) => new Set([...d, keyOf(a)]));
                setRound((r) => r + 1);
              }}
            />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
