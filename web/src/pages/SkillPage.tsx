/** `#apps/<app>/<skill>`: the form generated from the skill's request schema, and its results. */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { SkillDetails } from '../../../sdk/generated.js';
import { ApiError, errorMessage, quoteGuestCall, skillDetails, type GuestQuote } from '../api.js';
import { GuestQuotePanel } from '../skill/GuestQuote.js';
import { runSkill, type RunAnswer } from '../skill/api.js';
import { maxRequests, schemaFields } from '../skill/fields.js';
import { placeIssues, type PlacedIssues } from '../skill/issues.js';
import { ResultView } from '../skill/ResultView.js';
import { SkillForm } from '../skill/SkillForm.js';
import { FreeUsage } from '../skill/FreeUsage.js';
import { TaskProgress } from '../skill/TaskProgress.js';

const NO_ISSUES: PlacedIssues = { byField: {}, other: [] };

function Answer(props: { answer: RunAnswer; auth: string | null }) {
  const { answer } = props;
  if (answer.kind === 'task')
    return props.auth ? (
      <TaskProgress auth={props.auth} taskId={answer.taskId} embedId={answer.embedId} />
    ) : null;
  const { previews, call_id: _callId, ...output } = answer.body;
  return (
    <ResultView output={output} previews={previews} raw={answer.body} auth={props.auth} embedId={null} />
  );
}

export function SkillPage(props: { auth: string | null; app: string; skill: string }) {
  const { auth, app, skill } = props;
  const [details, setDetails] = useState<SkillDetails | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [busyLabel, setBusyLabel] = useState('Running…');
  const [runError, setRunError] = useState<string | null>(null);
  const [issues, setIssues] = useState<PlacedIssues>(NO_ISSUES);
  const [answer, setAnswer] = useState<RunAnswer | null>(null);
  const [runs, setRuns] = useState(0);
  // A guest's run waits here, priced, until the guest confirms it.
  const [quoted, setQuoted] = useState<{ requests: Record<string, unknown>[]; quote: GuestQuote } | null>(
    null,
  );

  // Another skill starts from a blank page.
  useEffect(() => {
    setDetails(null);
    setAnswer(null);
    setQuoted(null);
  }, [app, skill]);
  // Signing in or out on this page reloads the details in place: the form stays mounted and keeps
  // what was typed.
  useEffect(() => {
    let current = true;
    setLoadError(null);
    // Guests read the public catalogue's copy of the details.
    skillDetails(auth, app, skill).then(
      (d) => current && setDetails(d),
      (e) => current && setLoadError(errorMessage(e)),
    );
    return () => {
      current = false;
    };
  }, [auth, app, skill]);

  const fields = useMemo(() => (details ? schemaFields(details.request_item_schema) : []), [details]);
  // A run's answer (results or live progress) is brought into view: on a phone or below a long
  // form it would otherwise appear off screen.
  const outcome = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (answer) outcome.current?.scrollIntoView({ block: 'start' });
  }, [answer]);

  const failed = (e: unknown) => {
    setRunError(errorMessage(e));
    if (e instanceof ApiError && e.code === 'INVALID_PARAMETER') setIssues(placeIssues(e.details, fields));
  };

  /** A guest's run: asks the quote first and shows it; nothing runs until the guest confirms. */
  const quote = async (requests: Record<string, unknown>[]) => {
    setBusy(true);
    setBusyLabel('Checking the price…');
    setRunError(null);
    setIssues(NO_ISSUES);
    setAnswer(null);
    setQuoted(null);
    try {
      setQuoted({ requests, quote: await quoteGuestCall(app, skill, { requests }) });
    } catch (e) {
      failed(e);
    } finally {
      setBusy(false);
    }
  };

  const run = async (requests: Record<string, unknown>[]) => {
    setBusy(true);
    setBusyLabel('Running…');
    setRunError(null);
    setIssues(NO_ISSUES);
    setAnswer(null);
    setQuoted(null);
    try {
      setAnswer(await runSkill(auth, app, skill, requests));
    } catch (e) {
      failed(e);
    } finally {
      setBusy(false);
      setRuns((n) => n + 1);
    }
  };

  if (loadError)
    return (
      <>
        <h1>
          {app} / {skill}
        </h1>
        <p role="alert" class="error">
          {loadError}
        </p>
      </>
    );
  if (!details)
    return (
      <>
        <h1>
          {app} / {skill}
        </h1>
        <p aria-live="polite">Loading…</p>
      </>
    );
  const guest = !auth && details.anonymous_access === 'inline';
  return (
    <article class="skill-page">
      <h1>{details.title}</h1>
      <p class="skill-id">
        <code>
          {details.app_id}.{details.id}
        </code>{' '}
        · {details.capabilities.mode === 'async' ? 'long-running' : 'quick'} ·{' '}
        {details.pricing.credits_per_request} credit(s) per request
      </p>
      <p>{details.description}</p>
      {auth || guest ? (
        <SkillForm
          fields={fields}
          defaults={details.defaults}
          maxRequests={guest ? 1 : maxRequests(details.request_schema)}
          busy={busy}
          serverIssues={issues.byField}
          onRun={(r) => void (guest ? quote(r) : run(r))}
        />
      ) : (
        <p class="hint">Sign in with an API key to run this skill.</p>
      )}
      {guest ? (
        <>
          <p class="hint" data-testid="guest-run-note">
            You are trying this skill as a guest: one request per run, within a free allowance. Sign in with
            an API key to send up to {maxRequests(details.request_schema)} requests at once.
          </p>
          <FreeUsage refresh={runs} />
        </>
      ) : null}
      {quoted ? (
        <GuestQuotePanel
          quote={quoted.quote}
          onRun={() => void run(quoted.requests)}
          onCancel={() => setQuoted(null)}
        />
      ) : null}
      <div aria-live="polite">{busy ? <p>{busyLabel}</p> : null}</div>
      {runError ? (
        <div role="alert" class="error">
          <p>{runError}</p>
          {issues.other.length ? (
            <ul>
              {issues.other.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <div class="outcome" ref={outcome}>
        {answer ? <Answer answer={answer} auth={auth} /> : null}
      </div>
    </article>
  );
}
