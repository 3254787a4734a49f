/** Sign-in: paste an API key. It is kept in sessionStorage only (see session.ts). */
import { useState } from 'preact/hooks';

/** The sign-in form; `onSignIn` receives the trimmed key. */
export function SignIn(props: { onSignIn: (key: string) => void }) {
  const [value, setValue] = useState('');
  return (
    <form
      class="sign-in"
      onSubmit={(event) => {
        event.preventDefault();
        if (value.trim().length > 0) props.onSignIn(value.trim());
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
        required
      />
      <button type="submit">Sign in</button>
      <p class="hint">The key stays in this tab only (session storage) and is sent as a bearer token.</p>
    </form>
  );
}
