/**
 * One step of a run, as selected on its graph: status, times, error, counts, and the input and
 * output of its call, read from the run (GET /v1/runs/{run_id}/steps/{step_id}) while it runs and
 * after. A step that calls nothing shows the output the run recorded for it, once the run has
 * completed. A loop lets one pick an element and an inner step to see that call.
 */
import { useState } from 'preact/hooks';
import type { RunStep, Task } from '../../../sdk/generated.js';
import { clock, duration, summary } from '../task/timing.js';
import { getRunStep } from './api.js';
import type { DefinitionGraph } from './graph-layout.js';
import { CALLING, loopCalls } from './loop-calls.js';
import { nodeStatus, statusText } from './graph-status.js';
import { useLoad } from './use-load.js';

type Step = Task['steps'][number];

/** The most characters of an input or output shown; the rest is cut. */
const MAX_SHOWN_CHARS = 20_000;

/** The step's output in the run's result, if the run has one and the step has an output. */
export function stepOutput(task: Pick<Task, 'result'>, stepId: string): { found: boolean; value: unknown } {
  const result = task.result as { outputs?: unknown } | null | undefined;
  const outputs = result?.outputs;
  if (!outputs || typeof outputs !== 'object' || !Object.hasOwn(outputs, stepId))
    return { found: false, value: null };
  return { found: true, value: (outputs as Record<string, unknown>)[stepId] };
}

function shown(value: unknown): string {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  return text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS)}\n…` : text;
}

function Json(props: { value: unknown; label: string; kind: 'input' | 'output' }) {
  return (
    <pre class={`detail-${props.kind}`} tabIndex={0} aria-label={props.label}>
      {shown(props.value)}
    </pre>
  );
}

/** What a call's state says while it has no answer. */
const WAITING: Record<string, string> = {
  scheduled: 'The call is waiting for a worker (or for its next attempt).',
  started: 'The call is running; its output shows here when it answers.',
  failed: 'The call failed: it has no output.',
  timed_out: 'The call timed out: it has no output.',
  cancelled: 'The call was cancelled: it has no output.',
  abandoned: 'The run ended while the call was open: it has no output.',
};

/** The input and output of one call, loaded for the step id the run names. */
function CallView(props: { auth: string; runId: string; stepId: string; refresh: unknown }) {
  const view = useLoad(
    () => getRunStep(props.auth, props.runId, props.stepId),
    [props.auth, props.runId, props.stepId, props.refresh],
  );
  if (view.state === 'loading') return <p class="hint">Loading the call…</p>;
  if (view.state === 'error') return <p class="alert error">{view.message}</p>;
  const call: RunStep['call'] = view.value.call;
  if (!call) return <p class="hint">This step has not been called.</p>;
  return (
    <>
      <h5>Input</h5>
      <Json value={call.input} label={`Input of ${props.stepId}`} kind="input" />
      {view.value.kind === 'chat' ? (
        <p class="hint">The message itself is sealed to your chat keys: read it under Messages.</p>
      ) : null}
      <h5>Output</h5>
      {call.state === 'completed' ? (
        <Json value={call.output} label={`Output of ${props.stepId}`} kind="output" />
      ) : (
        <p class="hint">{WAITING[call.state]}</p>
      )}
      {call.attempt !== null && call.attempt > 1 ? <p class="hint">Attempt {call.attempt}.</p> : null}
    </>
  );
}

/** A loop's element picker: an element number and one of its calling inner steps. */
function LoopElements(props: { auth: string; task: Task; step: Step; graph: DefinitionGraph }) {
  const inner = loopCalls(props.graph, props.step.id);
  const total = props.step.elements?.total ?? 0;
  const [index, setIndex] = useState(0);
  const [innerId, setInnerId] = useState(inner[0]?.id ?? '');
  const [shownId, setShownId] = useState<string | null>(null);
  if (inner.length === 0 || total === 0) return null;
  const formId = `loop-${props.step.id}`;
  return (
    <section class="loop-elements" aria-labelledby={`${formId}-title`}>
      <h5 id={`${formId}-title`}>One element's call</h5>
      <form
        class="loop-element-form"
        onSubmit={(e) => {
          e.preventDefault();
          setShownId(`${props.step.id}[${index}].${innerId}`);
        }}
      >
        <div>
          <label for={`${formId}-index`}>Element (0 to {total - 1})</label>
          <input
            id={`${formId}-index`}
            type="number"
            min={0}
            max={total - 1}
            step={1}
            value={index}
            onInput={(e) => {
              const n = Number((e.target as HTMLInputElement).value);
              setIndex(Number.isInteger(n) ? Math.min(Math.max(n, 0), total - 1) : 0);
            }}
          />
        </div>
        <div>
          <label for={`${formId}-inner`}>Step</label>
          <select
            id={`${formId}-inner`}
            value={innerId}
            onChange={(e) => setInnerId((e.target as HTMLSelectElement).value)}
          >
            {inner.map((n) => (
              <option key={n.id} value={n.id}>
                {n.id} ({n.label})
              </option>
            ))}
          </select>
        </div>
        <button type="submit" class="secondary">
          Show
        </button>
      </form>
      {shownId ? (
        <CallView
          key={shownId}
          auth={props.auth}
          runId={props.task.task_id}
          stepId={shownId}
          refresh={props.step.elements?.completed}
        />
      ) : null}
    </section>
  );
}

export function StepDetail(props: { auth: string; task: Task; step: Step; graph: DefinitionGraph }) {
  const s = props.step;
  const kind = props.graph.nodes.find((n) => n.id === s.id)?.kind;
  const output = stepOutput(props.task, s.id);
  const counts = summary(s.output_summary);
  return (
    <section class="graph-detail" aria-labelledby="graph-detail-title" aria-live="polite" data-step={s.id}>
      <h4 id="graph-detail-title">Step {s.id}</h4>
      <dl class="task-facts">
        <dt>Status</dt>
        <dd class="detail-status">{statusText(nodeStatus(s), s)}</dd>
        <dt>Started</dt>
        <dd>{clock(s.started_at)}</dd>
        <dt>Took</dt>
        <dd>{duration(s.started_at, s.finished_at)}</dd>
        {counts ? (
          <>
            <dt>Counts</dt>
            <dd>{counts}</dd>
          </>
        ) : null}
        {s.error ? (
          <>
            <dt>Error</dt>
            <dd class="detail-error">
              <code>{s.error.code}</code>: {s.error.message}
              {s.handled ? ' (handled by on_error)' : ''}
            </dd>
          </>
        ) : null}
      </dl>
      {kind && CALLING.has(kind) && !['pending', 'skipped', 'reused'].includes(s.status) ? (
        <CallView
          key={s.id}
          auth={props.auth}
          runId={props.task.task_id}
          stepId={s.id}
          refresh={s.status === 'running' ? props.task : s.status}
        />
      ) : (
        <>
          <h5>Output</h5>
          {output.found ? (
            <Json value={output.value} label={`Output of ${s.id}`} kind="output" />
          ) : (
            <p class="hint">
              {props.task.status === 'completed'
                ? 'This step has no output.'
                : s.status === 'pending' || s.status === 'skipped'
                  ? 'This step has not run.'
                  : 'Outputs show here once the run has completed.'}
            </p>
          )}
        </>
      )}
      {kind === 'for_each' ? (
        <LoopElements auth={props.auth} task={props.task} step={s} graph={props.graph} />
      ) : null}
    </section>
  );
}
