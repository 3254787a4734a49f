/**
 * One step of a run, as selected on its graph: status, times, error, counts and its output. A
 * run keeps its steps' outputs in its result, so they show once the run has completed.
 */
import type { Task } from '../../../sdk/generated.js';
import { clock, duration, summary } from '../task/timing.js';
import { nodeStatus, statusText } from './graph-status.js';

type Step = Task['steps'][number];

/** The most characters of an output shown; the rest is cut. */
const MAX_OUTPUT_CHARS = 20_000;

/** The step's output in the run's result, if the run has one and the step has an output. */
export function stepOutput(task: Pick<Task, 'result'>, stepId: string): { found: boolean; value: unknown } {
  const result = task.result as { outputs?: unknown } | null | undefined;
  const outputs = result?.outputs;
  if (!outputs || typeof outputs !== 'object' || !Object.hasOwn(outputs, stepId))
    return { found: false, value: null };
  return { found: true, value: (outputs as Record<string, unknown>)[stepId] };
}

function outputText(value: unknown): string {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  return text.length > MAX_OUTPUT_CHARS ? `${text.slice(0, MAX_OUTPUT_CHARS)}\n…` : text;
}

export function StepDetail(props: { task: Task; step: Step }) {
  const s = props.step;
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
      <h5>Output</h5>
      {output.found ? (
        <pre class="detail-output" tabIndex={0} aria-label={`Output of ${s.id}`}>
          {outputText(output.value)}
        </pre>
      ) : (
        <p class="hint">
          {props.task.status === 'completed'
            ? 'This step has no output.'
            : 'Outputs show here once the run has completed.'}
        </p>
      )}
    </section>
  );
}
