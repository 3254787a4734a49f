/**
 * A webhook definition's hook: the URL senders post to, the signing secret the moment it is made
 * (never again), and rotation with an optional grace period for the old secret.
 */
import { useState } from 'preact/hooks';
import type { WorkflowDefinition } from '../../../sdk/generated.js';
import { errorMessage } from '../api.js';
import { clock } from '../task/timing.js';
import { rotateHook } from './api.js';

type Hook = NonNullable<WorkflowDefinition['hook']>;

const GRACE = [
  { seconds: 0, label: 'Stop accepting it at once' },
  { seconds: 3600, label: 'Accept it for 1 more hour' },
  { seconds: 86_400, label: 'Accept it for 1 more day' },
] as const;

interface Props {
  auth: string;
  workflowId: string;
  hook: Hook;
  /** The secret the save that made the hook answered, when this page follows that save. */
  secret?: string | undefined;
}

export function HookPanel(props: Props) {
  const [hook, setHook] = useState<Hook>(props.hook);
  const [secret, setSecret] = useState(props.secret);
  const [grace, setGrace] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const rotate = () => {
    setBusy(true);
    setError(null);
    rotateHook(props.auth, props.workflowId, grace).then(
      (next) => {
        setBusy(false);
        setHook(next);
        setSecret(next.signing_secret);
      },
      (e: unknown) => {
        setBusy(false);
        setError(errorMessage(e));
      },
    );
  };
  return (
    <section aria-labelledby="hook-title" class="hook">
      <h2 id="hook-title">Webhook</h2>
      <p>
        Runs start when a signed JSON request is posted to:
        <br />
        <code data-testid="hook-url">{hook.url}</code>
      </p>
      {secret ? (
        <div class="secret" role="status">
          <p>
            <strong>Signing secret, shown only now.</strong> Copy it to the sender; it cannot be shown again
            (rotate to get a new one).
          </p>
          <code data-testid="hook-secret">{secret}</code>
        </div>
      ) : null}
      <p class="hint">
        Each request carries{' '}
        <code>X-Skillflow-Signature: t=&lt;unix seconds&gt;,v1=&lt;hex HMAC-SHA256&gt;</code> of{' '}
        <code>&lt;t&gt;.&lt;body&gt;</code> under the secret. The body's fields become the run inputs.
        {hook.previous_secret_expires_at
          ? ` The previous secret is accepted until ${clock(hook.previous_secret_expires_at)}.`
          : ''}
      </p>
      <div class="buttons">
        <label>
          Old secret{' '}
          <select value={grace} onChange={(e) => setGrace(Number((e.target as HTMLSelectElement).value))}>
            {GRACE.map((g) => (
              <option key={g.seconds} value={g.seconds}>
                {g.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" disabled={busy} onClick={rotate}>
          {busy ? 'Rotating…' : 'Rotate the signing secret'}
        </button>
      </div>
      {error ? (
        <p role="alert" class="error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
