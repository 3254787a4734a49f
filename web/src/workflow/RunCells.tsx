/** The cells every run table shares: the task link heading its row, and when it started and took. */
import { clock, duration } from '../task/timing.js';

/** The row's header: the run's task id, linking to its task page. */
export function RunTaskCell(props: { taskId: string }) {
  return (
    <th scope="row">
      <a href={`#tasks/${encodeURIComponent(props.taskId)}`}>{props.taskId}</a>
    </th>
  );
}

/** Started (clock time) and took (until it finished, or until now). */
export function RunTimingCells(props: { startedAt: string; finishedAt: string | null }) {
  return (
    <>
      <td>{clock(props.startedAt)}</td>
      <td>{duration(props.startedAt, props.finishedAt)}</td>
    </>
  );
}
