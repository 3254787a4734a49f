/**
 * The steps of a task: status, stage or wake-up time, timing, counts and error, one row each. A
 * parallel group's steps are indented under it, an on_error handler's steps under their step;
 * a loop shows its element counts and first failed elements.
 */
import type { Task } from '../../../sdk/generated.js';
import { TableScroll } from '../skill/views.js';
import { clock, dateTime, duration, summary } from './timing.js';
import { HeadRow } from '../ui.js';

type Step = Task['steps'][number];

/** `120 of 230 done, 2 failed, 10 running`. */
function elementCounts(e: NonNullable<Step['elements']>): string {
  const parts = [`${e.completed} of ${e.total} done`];
  if (e.reused) parts.push(`${e.reused} reused`);
  if (e.failed > 0) parts.push(`${e.failed} failed`);
  if (e.running > 0) parts.push(`${e.running} running`);
  return parts.join(', ');
}

function Output(props: { step: Step }) {
  const s = props.step;
  const handled = s.handled ? ' (handled by on_error)' : '';
  const child = s.child_task_id ? (
    <>
      {' '}
      <a href={`#tasks/${s.child_task_id}`}>Child run</a>
    </>
  ) : null;
  const text = s.error ? `${s.error.code}: ${s.error.message}${handled}` : summary(s.output_summary);
  if (!s.elements)
    return (
      <>
        {text}
        {child}
      </>
    );
  return (
    <>
      <span class="elements">{elementCounts(s.elements)}</span>
      {s.error ? <div>{text}</div> : null}
      {s.elements.failures.length > 0 ? (
        <ul class="element-failures" aria-label="First failed elements">
          {s.elements.failures.map((f) => (
            <li key={f.index}>
              Element {f.index}, step {f.step}: {f.error.code}: {f.error.message}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

export function StepList(props: { steps: Task['steps']; caption: string }) {
  if (props.steps.length === 0) return <p>No steps yet.</p>;
  return (
    <TableScroll label={props.caption}>
      <table class="steps">
        <caption>{props.caption}</caption>
        <HeadRow columns={['Step', 'Status', 'Started', 'Took', 'Output']} />
        <tbody>
          {props.steps.map((s) => (
            <tr
              key={s.id}
              data-step={s.id}
              class={`step-${s.status}${s.group || s.handler ? ' step-inner' : ''}`}
            >
              <th scope="row">
                {s.handler ? <span aria-hidden="true">↳ </span> : null}
                {s.id}
                {s.group ? <span class="visually-hidden"> (in group {s.group})</span> : null}
                {s.handler ? (
                  <span class="visually-hidden"> (handles the failure of {s.handler})</span>
                ) : null}
              </th>
              <td class="step-status">
                {s.status}
                {s.stage && s.status === 'running' ? ` (${s.stage.replaceAll('_', ' ')})` : ''}
                {s.wake_at && s.status === 'running' ? ` (waiting until ${dateTime(s.wake_at)})` : ''}
                {s.approval && s.status === 'running' ? (
                  <>
                    {' '}
                    (<a href="#approvals">waiting for approval</a> until {dateTime(s.approval.expires_at)})
                  </>
                ) : null}
                {s.event && s.status === 'running'
                  ? ` (waiting for event ${s.event.name} until ${dateTime(s.event.expires_at)})`
                  : ''}
              </td>
              <td>{clock(s.started_at)}</td>
              <td>{duration(s.started_at, s.finished_at)}</td>
              <td>
                <Output step={s} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
