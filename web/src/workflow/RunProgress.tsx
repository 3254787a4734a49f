/**
 * A run started from the page: its steps turning completed, live, on the definition's graph and
 * in a table, with a link to its task page.
 */
import { useEffect } from 'preact/hooks';
import type { WorkflowDefinition } from '../../../sdk/generated.js';
import { PlanGraph } from './PlanGraph.js';
import { StepList } from '../task/StepList.js';
import { QueuePlace } from '../task/QueuePlace.js';
import { TERMINAL, useTask } from '../task/use-task.js';
import { Alert } from '../ui.js';

export function RunProgress(props: {
  auth: string;
  taskId: string;
  graph?: WorkflowDefinition['graph'];
  onFinished: () => void;
}) {
  const { task, error } = useTask(props.auth, props.taskId);
  const finished = task !== null && TERMINAL.has(task.status);
  useEffect(() => {
    if (finished) props.onFinished();
  }, [finished]);
  return (
    <section class="run-progress" aria-labelledby="run-progress-title">
      <h2 id="run-progress-title">This run</h2>
      <p>
        <a href={`#tasks/${encodeURIComponent(props.taskId)}`}>Task {props.taskId}</a>
      </p>
      <p aria-live="polite" class="task-status" data-status={task?.status ?? 'starting'}>
        Status: <strong>{task?.status ?? 'starting'}</strong>
        {task ? <QueuePlace queue={task.queue} /> : null}
      </p>
      <Alert message={error} />
      {task && props.graph ? (
        <PlanGraph graph={props.graph} label="Steps of this run" steps={task.steps} />
      ) : null}
      {task ? <StepList steps={task.steps} caption="Steps of this run" /> : null}
      {task?.error ? (
        <p role="alert" class="error">
          {task.error.code}: {task.error.message}
        </p>
      ) : null}
    </section>
  );
}
