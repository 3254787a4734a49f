/** Sign-in: paste an API key. It is checked, then kept in sessionStorage only (see session.ts). */
import { useState } from 'preact/hooks';
import { errorMessage, verifyKey } from '../api.js';
import { Alert } from '../ui.js';

/** The sign-in form; `onSignIn` receives the trimmed key once the API accepted it. */
export function SignIn(props: { onSignIn: (key: string) => void }) {
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      class="sign-in"
      onSubmit={(event) => {
        event.preventDefault();
        const key = value.trim();
        if (key.length === 0 || busy) return;
        setBusy(true);
        setError(null);
        verifyKey(key).then(
          () => props.onSignIn(key),
          (e: unknown) => {
            setBusy(false);
            setError(errorMessage(e));
          },
        );
      }}
    >
      <label for="api-key">API key</label>
      <input
        id="api-key"
        name="api-key"
        type="password"
        autocomplete="off"
        spellcheck={false}
        value={value}
        onInput={(event) => setValue(event.currentTarget.value)}
        aria-describedby="api-key-hint"
        aria-invalid={error ? 'true' : undefined}
        required
      />
      <button type="submit" disabled={busy}>
        {busy ? 'Checking…' : 'Sign in'}
      </button>
      <p class="hint" id="api-key-hint">
        The key stays in this tab only (session storage) and is sent as a bearer token.
      </p>
      <Alert message={error} />
    </form>
  );
}
