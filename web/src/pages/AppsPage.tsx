/** `#apps`: the apps and their skills, read from the discovery routes. */
import { useEffect, useState } from 'preact/hooks';
import type { AppView } from '../../../sdk/generated.js';
import { listApps } from '../api.js';
import { skillHash } from '../routes.js';

type State = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; apps: AppView[] };

/** Lists every app with links to its skill pages. */
export function AppsPage(props: { auth: string | null }) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    listApps().then(
      (apps) => live && setState({ kind: 'ready', apps }),
      (error: unknown) =>
        live &&
        setState({ kind: 'error', message: error instanceof Error ? error.message : 'Request failed.' }),
    );
    return () => {
      live = false;
    };
  }, [props.auth]);

  if (state.kind === 'loading') return <p aria-live="polite">Loading apps…</p>;
  if (state.kind === 'error')
    return (
      <p role="alert" class="error">
        {state.message}
      </p>
    );
  return (
    <section aria-labelledby="apps-title">
      <h1 id="apps-title">Apps</h1>
      {props.auth ? null : (
        <p class="hint" data-testid="guest-note">
          You are browsing as a guest. Skills marked “free to try” run without a key, within a free daily
          allowance; sign in with an API key for everything else.
        </p>
      )}
      <ul class="apps">
        {state.apps.map((app) => (
          <li key={app.id} class="app" data-app={app.id}>
            <h2>{app.title}</h2>
            <p>{app.description}</p>
            <ul class="skills">
              {app.skills.map((skill) => (
                <li key={skill.id}>
                  <a href={skillHash(app.id, skill.id)}>{skill.title}</a>
                  <span class="mode">{skill.capabilities.mode === 'async' ? ' (long-running)' : ''}</span>
                  {skill.available ? null : <span class="unavailable"> (unavailable)</span>}
                  {!props.auth && skill.anonymous_access === 'inline' ? (
                    <span class="badge"> free to try</span>
                  ) : null}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
