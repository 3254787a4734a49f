/** The workspace shell: sign-in, navigation and the hash router. */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { AppsPage } from './pages/AppsPage.js';
import { Pending } from './pages/Pending.js';
import { SignIn } from './pages/SignIn.js';
import { parseRoute, type Route } from './routes.js';
import { clearApiKey, readApiKey, saveApiKey } from './session.js';

function Page(props: { route: Route; apiKey: string }) {
  const { route } = props;
  switch (route.page) {
    case 'apps':
      return <AppsPage apiKey={props.apiKey} />;
    case 'skill':
      return <Pending title={`${route.app} / ${route.skill}`} />;
    case 'task':
      return <Pending title={`Task ${route.taskId}`} />;
    case 'workflows':
      return <Pending title="Workflows" />;
    case 'workflow':
      return <Pending title={`Workflow ${route.workflowId}`} />;
    case 'not_found':
      return <Pending title="Not found" />;
  }
}

function Shell() {
  const [route, setRoute] = useState<Route>(() => parseRoute(location.hash));
  const [apiKey, setApiKey] = useState<string | null>(() => readApiKey());
  useEffect(() => {
    const onHash = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  return (
    <>
      <header>
        <nav aria-label="Main">
          <a href="#apps">Apps</a> <a href="#workflows">Workflows</a>
        </nav>
        {apiKey ? (
          <button
            type="button"
            onClick={() => {
              clearApiKey();
              setApiKey(null);
            }}
          >
            Sign out
          </button>
        ) : null}
      </header>
      <main>
        {apiKey ? (
          <Page route={route} apiKey={apiKey} />
        ) : (
          <SignIn
            onSignIn={(key) => {
              saveApiKey(key);
              setApiKey(readApiKey());
            }}
          />
        )}
      </main>
    </>
  );
}

const root = document.getElementById('root');
if (root) render(<Shell />, root);
