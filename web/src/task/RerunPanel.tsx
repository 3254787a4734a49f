/**
 * The re-run form of a closed workflow run: from which top-level step (by default the first that
 * failed) and, optionally, changed run inputs as JSON. The steps before it keep their recorded
 * outputs and make no call; the new run opens when it starts. Also the links between a run and
 * its re-runs.
 */
import { useState } from 'preact/hooks';
import type { RerunStarted, Task } from '../../../sdk/generated.js';
import { errorMessage, request } from '../api.js';

/** POST /v1/runs/{run_id}/rerun. */
function rerun(auth: string, runId: string, body: Record<string, unknown>): Promise<RerunStarted> {
  return request('POST', `/v1/runs/${encodeURIComponent(runId)}/rerun`, { auth, body });
}

/** The run inputs typed as a JSON object, or an error message. */
function parsedInputs(text: string): { inputs?: Record<string, unknown>; error?: string } {
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value))
      return { inputs: value as Record<string, unknown> };
  } catch {
    // Reported below, without echoing the text.
  }
  return { error: 'Changed inputs must be a JSON object, such as {"name": "value"}.' };
}

export function RerunLinks(props: { task: Task }) {
  const { rerun_of, reruns } = props.task;
  if (!rerun_of && reruns.length === 0) return null;
  return (
    <p class="rerun-links">
      {rerun_of ? (
        <>
          Re-run of <a href={`#tasks/${rerun_of}`}>{rerun_of}</a>.{' '}
        </>
      ) : null}
      {reruns.length > 0 ? (
        <>
          Re-runs:{' '}
          {reruns.map((id, i) => (
            <span key={id}>
              {i > 0 ? ', ' : ''}
              <a href={`#tasks/${id}`}>{id}</a>
            </span>
          ))}
        </>
      ) : null}
    </p>
  );
}

export function RerunPanel(props: { auth: string; task: Task }) {
  const top = props.task.steps.filter((s) => !s.group && !s.handler);
  const [from, setFrom] = useState('');
  const [inputs, setInputs] = useState('');
  const [state, setState] = useState<{ busy: boolean; message: string | null }>({
    busy: false,
    message: null,
  });
  return (
    <form
      class="rerun"
      aria-labelledby="rerun-title"
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = parsedInputs(inputs);
        if (parsed.error) {
          setState({ busy: false, message: parsed.error });
          return;
        }
        setState({ busy: true, message: null });
        rerun(props.auth, props.task.task_id, {
          ...(from && { from_step: from }),
          ...(parsed.inputs && { inputs: parsed.inputs }),
        }).then(
          (started) => {
            setState({ busy: false, message: null });
            location.hash = `#tasks/${started.task_id}`;
          },
          (err: unknown) => setState({ busy: false, message: errorMessage(err) }),
        );
      }}
    >
      <h2 id="rerun-title">Re-run</h2>
      <p class="hint">
        The steps before the chosen one keep their outputs: they make no call and cost nothing. A step whose
        inputs change runs again.
      </p>
      <label for="rerun-from">From step</label>
      <select id="rerun-from" value={from} onChange={(e) => setFrom((e.target as HTMLSelectElement).value)}>
        <option value="">
          {props.task.status === 'completed'
            ? 'The first step (every step runs)'
            : 'The first step that failed'}
        </option>
        {top.map((s) => (
          <option key={s.id} value={s.id}>
            {s.id} ({s.status})
          </option>
        ))}
      </select>
      <label for="rerun-inputs">Changed run inputs (JSON, optional)</label>
      <textarea
        id="rerun-inputs"
        rows={3}
        spellcheck={false}
        placeholder='{"name": "value"}'
        value={inputs}
        onInput={(e) => setInputs((e.target as HTMLTextAreaElement).value)}
      />
      <button type="submit" disabled={state.busy}>
        {state.busy ? 'Starting…' : 'Re-run'}
      </button>
      {state.message ? (
        <p role="alert" class="error">
          {state.message}
        </p>
      ) : null}
    </form>
  );
}
