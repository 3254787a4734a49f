/**
 * Sign-in: paste an API key. It is sent once, to start a first-party session (see session.ts),
 * and then forgotten: the tab keeps no key.
 */
import { useState } from 'preact/hooks';
import { errorMessage } from '../api.js';
import { signInWithKey, type Auth } from '../session.js';
import { Alert } from '../ui.js';

/** The sign-in form; `onSignIn` receives the new session's CSRF token once the API accepted the key. */
export function SignIn(props: { onSignIn: (auth: Auth) => void }) {
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
        signInWithKey(key).then(
          (auth) => {
            setValue('');
            props.onSignIn(auth);
          },
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
        The key is used once to sign this browser in; it is not stored. Signing out ends the session.
      </p>
      <Alert message={error} />
    </form>
  );
}
