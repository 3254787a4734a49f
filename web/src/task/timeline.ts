/**
 * The bars of a task's step timeline, from the steps' `started_at` and `finished_at`: each
 * bar's offset and width as percentages of the task's span (its start to its end, or to `now`
 * while it runs). A step a re-run reused kept the earlier run's times: it takes no bar and no
 * part of the span (it took no time in this run). Pure, unit-tested.
 */

export interface TimelineStep {
  id: string;
  status: string;
  started_at?: string | null | undefined;
  finished_at?: string | null | undefined;
}

export interface TimelineBar {
  id: string;
  status: string;
  /** Percent of the task's span before the step started. */
  left: number;
  /** Percent of the task's span the step took (at least a sliver, so a quick step shows). */
  width: number;
  /** Still running: the bar reaches the end of the span. */
  open: boolean;
}

const MIN_WIDTH = 0.5;

function ms(iso: string | null | undefined): number | undefined {
  if (!iso) return undefined;
  const t = new Date(iso).getTime();
  return Number.isFinite(t) ? t : undefined;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** Bars for the steps that started; none when nothing started. */
export function timelineBars(
  task: { started_at: string; finished_at: string | null },
  steps: readonly TimelineStep[],
  now: number,
): TimelineBar[] {
  const started = steps.filter((s) => s.status !== 'reused' && ms(s.started_at) !== undefined);
  if (started.length === 0) return [];
  const first = Math.min(ms(task.started_at) ?? Infinity, ...started.map((s) => ms(s.started_at)!));
  const last = Math.max(
    ms(task.finished_at) ?? now,
    ...started.map((s) => ms(s.finished_at) ?? ms(s.started_at)!),
  );
  const span = Math.max(last - first, 1);
  return started.map((s) => {
    const from = ms(s.started_at)!;
    const to = ms(s.finished_at) ?? last;
    const left = round(((from - first) / span) * 100);
    return {
      id: s.id,
      status: s.status,
      left,
      width: Math.min(Math.max(round(((to - from) / span) * 100), MIN_WIDTH), round(100 - left)),
      open: ms(s.finished_at) === undefined,
    };
  });
}
