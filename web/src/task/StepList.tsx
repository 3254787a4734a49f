/** The steps of a task: status, stage or wake-up time, timing, counts and error, one row each. */
import type { Task } from '../../../sdk/generated.js';
import { TableScroll } from '../skill/views.js';
import { clock, dateTime, duration, summary } from './timing.js';
import { HeadRow } from '../ui.js';

export function StepList(props: { steps: Task['steps']; caption: string }) {
  if (props.steps.length === 0) return <p>No steps yet.</p>;
  return (
    <TableScroll label={props.caption}>
      <table class="steps">
        <caption>{props.caption}</caption>
        <HeadRow columns={['Step', 'Status', 'Started', 'Took', 'Output']} />
        <tbody>
          {props.steps.map((s) => (
            <tr key={s.id} data-step={s.id} class={`step-${s.status}`}>
              <th scope="row">{s.id}</th>
              <td class="step-status">
                {s.status}
                {s.stage && s.status === 'running' ? ` (${s.stage.replaceAll('_', ' ')})` : ''}
                {s.wake_at && s.status === 'running' ? ` (waiting until ${dateTime(s.wake_at)})` : ''}
              </td>
              <td>{clock(s.started_at)}</td>
              <td>{duration(s.started_at, s.finished_at)}</td>
              <td>{s.error ? `${s.error.code}: ${s.error.message}` : summary(s.output_summary)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
