/** A long-running or queued skill call: live status and stage, then its result and downloads. */
import { EmbedDownloads } from './embeds.js';
import { ResultView } from './ResultView.js';
import { useTask } from '../task/use-task.js';
import { Alert } from '../ui.js';

/** Stage names of a long-running call's heartbeats, in words. */
const STAGES: Record<string, string> = {
  checking_cache: 'Checking the cache',
  querying_upstream: 'Asking the provider',
  fetching_schematic: 'Fetching the schematic',
  completed: 'Completed',
};

export function TaskProgress(props: { auth: string; taskId: string; embedId: string | null }) {
  const { task, error } = useTask(props.auth, props.taskId);
  const stage = task?.steps.find((s) => s.stage)?.stage;
  const result = task?.result as { output?: unknown; previews?: unknown } | null | undefined;
  return (
    <section class="task-progress" aria-labelledby="progress-title">
      <h2 id="progress-title">Task</h2>
      <p>
        <a href={`#tasks/${encodeURIComponent(props.taskId)}`}>{props.taskId}</a>
      </p>
      <p aria-live="polite" class="task-status" data-status={task?.status ?? 'starting'}>
        Status: <strong>{task?.status ?? 'starting'}</strong>
        {task && task.status === 'running' && stage ? (
          <span class="stage"> · {STAGES[stage] ?? stage}</span>
        ) : null}
      </p>
      <Alert message={error} />
      <Alert message={task?.error ? task.error.message : null} />
      {task?.status === 'completed' && result ? (
        <>
          <ResultView
            output={result.output}
            previews={result.previews}
            raw={task}
            auth={props.auth}
            embedId={props.embedId}
          />
          {props.embedId ? <EmbedDownloads auth={props.auth} embedId={props.embedId} /> : null}
        </>
      ) : null}
    </section>
  );
}
