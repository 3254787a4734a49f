/**
 * A task's steps as a Gantt-style timeline: one bar per started step, placed by its start and
 * length within the task (web/src/task/timeline.ts), coloured by status, with the step's
 * duration as its label; steps a re-run reused are named under it (they took no time in this
 * run). The trace id, when the API exported one, is shown for looking the
 * run up in a tracing backend.
 */
import type { Task } from '../../../sdk/generated.js';
import { duration } from './timing.js';
import { timelineBars } from './timeline.js';

export function StepTimeline(props: { task: Task; now: number }) {
  const steps = props.task.steps;
  const bars = timelineBars(props.task, steps, props.now);
  const byId = new Map(steps.map((s) => [s.id, s]));
  const reused = steps.filter((s) => s.status === 'reused').map((s) => s.id);
  return (
    <section class="step-timeline" aria-label="Step timeline">
      {bars.length > 0 ? (
        <ol>
          {bars.map((b) => {
            const s = byId.get(b.id);
            const took = duration(s?.started_at, s?.finished_at);
            return (
              <li key={b.id} class={`timeline-row step-${b.status}`}>
                <span class="timeline-label">{b.id}</span>
                <span class="timeline-track">
                  <span
                    class={`timeline-bar${b.open ? ' timeline-open' : ''}`}
                    style={{ marginLeft: `${b.left}%`, width: `${b.width}%` }}
                    title={`${b.id}: ${b.status}, ${took}`}
                  />
                </span>
                <span class="timeline-took">{b.open ? b.status : took}</span>
              </li>
            );
          })}
        </ol>
      ) : null}
      {reused.length > 0 ? (
        <p class="timeline-reused">Reused from the earlier run (no time here): {reused.join(', ')}</p>
      ) : null}
      {props.task.trace_id ? (
        <p class="trace-id">
          Trace <code>{props.task.trace_id}</code>
        </p>
      ) : null}
    </section>
  );
}
