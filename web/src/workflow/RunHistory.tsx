/** The run history of a definition (GET /v1/workflows/{id}/runs), newest first. */
import { TableScroll } from '../skill/views.js';
import { listRuns } from './api.js';
import { RunTaskCell, RunTimingCells } from './RunCells.js';
import { Empty, LoadStatus, HeadRow } from '../ui.js';
import { useLoad } from './use-load.js';

export function RunHistory(props: { auth: string; workflowId: string; refresh: number }) {
  const runs = useLoad(
    () => listRuns(props.auth, props.workflowId),
    [props.auth, props.workflowId, props.refresh],
  );
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">Run history</h2>
      <LoadStatus load={runs} loading="Loading runs…" />
      {runs.state === 'ready' && runs.value.runs.length === 0 ? (
        <Empty title="No runs yet.">Start one with the form on this page.</Empty>
      ) : null}
      {runs.state === 'ready' && runs.value.runs.length > 0 ? (
        <TableScroll label="Run history">
          <table class="runs">
            <caption>Runs of this workflow</caption>
            <HeadRow columns={['Task', 'Status', 'Version', 'Trigger', 'Started', 'Took']} />
            <tbody>
              {runs.value.runs.map((r) => (
                <tr key={r.task_id} data-task={r.task_id}>
                  <RunTaskCell taskId={r.task_id} />
                  <td class="run-status" data-status={r.status}>
                    {r.status}
                  </td>
                  <td>{r.definition_version ?? '—'}</td>
                  <td>{r.trigger ?? '—'}</td>
                  <RunTimingCells startedAt={r.started_at} finishedAt={r.finished_at} />
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </section>
  );
}
