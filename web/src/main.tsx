/** The workspace shell: sign-in, navigation and the hash router. */
import { render } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApprovalLinkPage } from './pages/ApprovalLinkPage.js';
import { ApprovalsPage } from './pages/ApprovalsPage.js';
import { AppsPage } from './pages/AppsPage.js';
import { ChatPage, MessagesPage } from './pages/MessagesPage.js';
import { NotFound } from './pages/NotFound.js';
import { RunsPage } from './pages/RunsPage.js';
import { SignIn } from './pages/SignIn.js';
import { SkillPage } from './pages/SkillPage.js';
import { TaskPage } from './pages/TaskPage.js';
import { WorkflowPage } from './pages/WorkflowPage.js';
import { WorkflowsPage } from './pages/WorkflowsPage.js';
import { parseRoute, type Route } from './routes.js';
import { errorMessage } from './api.js';
import { restoreSession, signInWithCode, signOut, type Auth } from './session.js';
import { Alert } from './ui.js';

/** Pages that anyone may open: the catalogue, the skills guests may try, an approval link. */
function isPublic(route: Route): boolean {
  return (
    route.page === 'apps' || route.page === 'skill' || route.page === 'not_found' || route.page === 'approve'
  );
}

function Page(props: { route: Route; auth: string | null }) {
  const { route, auth } = props;
  if (route.page === 'apps') return <AppsPage auth={auth} />;
  if (route.page === 'skill') return <SkillPage auth={auth} app={route.app} skill={route.skill} />;
  if (route.page === 'not_found') return <NotFound />;
  if (route.page === 'approve') return <ApprovalLinkPage token={route.token} />;
  if (route.page === 'sign_in_link') return null;
  if (!auth) return null;
  switch (route.page) {
    case 'task':
      return <TaskPage auth={auth} taskId={route.taskId} />;
    case 'workflows':
      return <WorkflowsPage auth={auth} />;
    case 'workflow':
      return <WorkflowPage auth={auth} workflowId={route.workflowId} />;
    case 'runs':
      return <RunsPage auth={auth} />;
    case 'approvals':
      return <ApprovalsPage auth={auth} />;
    case 'messages':
      return <MessagesPage auth={auth} />;
    case 'chat':
      return <ChatPage auth={auth} chatId={route.chatId} />;
  }
}

/** The document title of a route, so history entries and screen readers name the page. */
function titleOf(route: Route): string {
  switch (route.page) {
    case 'apps':
      return 'Apps';
    case 'skill':
      return `${route.app} / ${route.skill}`;
    case 'task':
      return `Task ${route.taskId}`;
    case 'workflows':
      return 'Workflows';
    case 'workflow':
      return `Workflow ${route.workflowId}`;
    case 'runs':
      return 'Runs';
    case 'approvals':
      return 'Approvals';
    case 'messages':
      return 'Messages';
    case 'chat':
      return `Chat ${route.chatId}`;
    case 'approve':
      return 'Approval';
    case 'sign_in_link':
      return 'Signing in';
    case 'not_found':
      return 'Not found';
  }
}

/** Which main navigation entry a route belongs to. */
function section(route: Route): 'apps' | 'workflows' | 'runs' | 'approvals' | 'messages' | null {
  if (route.page === 'apps' || route.page === 'skill') return 'apps';
  if (route.page === 'runs') return 'runs';
  if (route.page === 'approvals') return 'approvals';
  if (route.page === 'messages' || route.page === 'chat') return 'messages';
  if (route.page === 'workflows' || route.page === 'workflow' || route.page === 'task') return 'workflows';
  return null;
}

const SECTIONS = [
  { id: 'apps', label: 'Apps' },
  { id: 'workflows', label: 'Workflows' },
  { id: 'runs', label: 'Runs' },
  { id: 'approvals', label: 'Approvals' },
  { id: 'messages', label: 'Messages' },
] as const;

/** The main navigation: one link per section, the current one marked for assistive technology. */
function MainNav(props: { current: ReturnType<typeof section> }) {
  return (
    <nav class="sidenav" aria-label="Main">
      <ul>
        {SECTIONS.map((s) => (
          <li key={s.id}>
            <a href={`#${s.id}`} aria-current={props.current === s.id ? 'page' : undefined}>
              {s.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Shell() {
  const [route, setRoute] = useState<Route>(() => parseRoute(location.hash));
  // undefined until the API said whether this browser has a live session.
  const [auth, setAuth] = useState<Auth | undefined>(undefined);
  const [linkError, setLinkError] = useState<string | null>(null);
  const main = useRef<HTMLElement>(null);
  useEffect(() => {
    // A one-time sign-in link: spend its code, then drop it from the address bar and history.
    if (route.page === 'sign_in_link') {
      const code = route.code;
      history.replaceState(null, '', '#apps');
      setRoute({ page: 'apps' });
      signInWithCode(code).then(setAuth, (e: unknown) => {
        setLinkError(errorMessage(e));
        void restoreSession().then(setAuth);
      });
      return;
    }
    void restoreSession().then(setAuth);
  }, []); // once, at load
  useEffect(() => {
    const onHash = () => {
      setRoute(parseRoute(location.hash));
      // A new page: move focus to the content, as a full page load would.
      main.current?.focus();
    };
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  // With the page's content, not a frame later: the title and the page change together.
  useLayoutEffect(() => {
    document.title = `${titleOf(route)} · skillflow workspace`;
  }, [route]);
  const current = section(route);
  return (
    <>
      <a
        class="skip"
        href="#apps"
        onClick={(event) => {
          event.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to content
      </a>
      <div class="shell">
        <header class="topbar">
          <a class="wordmark" href="#apps">
            skillflow
          </a>
          {/* The session: Sign out, or the sign-in form (an approval link needs no key: its
              approver is not asked to sign in). */}
          <div class="session">
            {auth ? (
              <button
                type="button"
                onClick={() => {
                  void signOut(auth).then(() => setAuth(null));
                }}
              >
                Sign out
              </button>
            ) : auth === null && route.page !== 'approve' ? (
              <SignIn
                onSignIn={(signedIn) => {
                  setLinkError(null);
                  setAuth(signedIn);
                }}
              />
            ) : null}
          </div>
        </header>
        <MainNav current={current} />
        <main id="main" tabIndex={-1} ref={main}>
          <Alert message={linkError} />
          {auth === undefined ? (
            <p aria-live="polite">Loading…</p>
          ) : (
            <>
              {auth || isPublic(route) ? null : <p>Sign in to see this page.</p>}
              <Page route={route} auth={auth} />
            </>
          )}
        </main>
      </div>
    </>
  );
}

const root = document.getElementById('root');
if (root) render(<Shell />, root);
