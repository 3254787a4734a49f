/** `#tasks/<task_id>`: live status, steps and timing, the result or error, cancel, Temporal UI link. */
import { useState } from 'preact/hooks';
import { cancelTask, errorMessage } from '../api.js';
import { ResultView } from '../skill/ResultView.js';
import { StepList } from '../task/StepList.js';
import { RerunLinks, RerunPanel } from '../task/RerunPanel.js';
import { StepTimeline } from '../task/StepTimeline.js';
import { RunGraph } from '../workflow/RunGraph.js';
import { QueuePlace } from '../task/QueuePlace.js';
import { clock, duration } from '../task/timing.js';
import { TERMINAL, useTask } from '../task/use-task.js';

export function TaskPage(props: { auth: string; taskId: string }) {
  const { task, error } = useTask(props.auth, props.taskId);
  const [cancel, setCancel] = useState<{ busy: boolean; message: string | null }>({
    busy: false,
    message: null,
  });
  const result = task?.result as
    { output?: unknown; outputs?: unknown; previews?: unknown } | null | undefined;
  return (
    <section aria-labelledby="task-title">
      <h1 id="task-title">Task {props.taskId}</h1>
      {error && !task ? (
        <p role="alert" class="error">
          {error}
        </p>
      ) : null}
      {task ? (
        <>
          <dl class="task-facts">
            <dt>Status</dt>
            <dd aria-live="polite" class="task-status" data-status={task.status}>
              {task.status}
              <QueuePlace queue={task.queue} />
            </dd>
            <dt>What</dt>
            <dd>
              {task.kind === 'workflow_run' && task.definition ? (
                <a href={`#workflows/${encodeURIComponent(task.definition.id)}`}>
                  Workflow {task.definition.id}
                  {task.definition.version !== null ? ` v${task.definition.version}` : ''}
                </a>
              ) : (
                `Skill ${task.skill ?? ''}`
              )}
              {task.trigger ? ` (${task.trigger})` : ''}
            </dd>
            <dt>Started</dt>
            <dd>{clock(task.started_at)}</dd>
            <dt>Took</dt>
            <dd>{duration(task.started_at, task.finished_at)}</dd>
          </dl>
          <p>
            <a href={task.links.temporal_ui} target="_blank" rel="noopener noreferrer">
              Open in the Temporal UI
            </a>
          </p>
          {TERMINAL.has(task.status) ? null : (
            <button
              type="button"
              disabled={cancel.busy}
              onClick={() => {
                setCancel({ busy: true, message: null });
                cancelTask(props.auth, props.taskId).then(
                  () => setCancel({ busy: false, message: 'Cancel requested.' }),
                  (e: unknown) => setCancel({ busy: false, message: errorMessage(e) }),
                );
              }}
            >
              Cancel
            </button>
          )}
          {cancel.message ? <p aria-live="polite">{cancel.message}</p> : null}
          <RerunLinks task={task} />
          <h2>Steps</h2>
          {task.kind === 'workflow_run' && task.definition ? (
            <RunGraph auth={props.auth} task={task} definitionId={task.definition.id} />
          ) : null}
          <StepTimeline task={task} now={Date.now()} />
          <StepList steps={task.steps} caption="Steps of this task" />
          {task.error ? (
            <div role="alert" class="error task-error">
              <h2>Error</h2>
              <p>
                <code>{task.error.code}</code>: {task.error.message}
              </p>
            </div>
          ) : null}
          {task.status === 'completed' && result && task.kind === 'skill_call' ? (
            <ResultView
              output={result.output}
              previews={result.previews ?? []}
              raw={task}
              auth={props.auth}
              embedId={null}
            />
          ) : null}
          {task.status === 'completed' && result && task.kind === 'workflow_run' ? (
            // A run's outputs hold every step's whole output: folded, opened on demand.
            <details class="step-outputs">
              <summary>Outputs of the steps</summary>
              <ResultView output={result.outputs} previews={[]} raw={task} auth={props.auth} embedId={null} />
            </details>
          ) : null}
          {task.kind === 'workflow_run' && TERMINAL.has(task.status) ? (
            <RerunPanel key={task.task_id} auth={props.auth} task={task} />
          ) : null}
        </>
      ) : error ? null : (
        <p aria-live="polite">Loading the task…</p>
      )}
    </section>
  );
}
