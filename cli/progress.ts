/**
 * Rendering a task for a terminal: one line per step with a status symbol and its elapsed
 * time (a parallel group's steps indented under it, an on_error handler's steps under their
 * step, a loop's element counts and first failed elements). On a TTY {@link LiveProgress} redraws the block in place while the task runs.
 */
import type { Task, TaskStep } from '../sdk/index.js';

const SYMBOLS: Record<TaskStep['status'], string> = {
  pending: '○',
  running: '◐',
  completed: '✔',
  failed: '✖',
  skipped: '↷',
  cancelled: '⊘',
  reused: '↺',
};
const SPINNER = ['◐', '◓', '◑', '◒'];
const COLORS: Partial<Record<string, string>> = {
  completed: '32',
  failed: '31',
  cancelled: '33',
  skipped: '90',
  running: '36',
  reused: '34',
};

/** `1.2s`, `3m04s`. */
export function formatElapsed(ms: number): string {
  if (ms < 60_000) return `${(Math.max(0, ms) / 1000).toFixed(1)}s`;
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

function elapsed(start: string | null, end: string | null, now: number): string {
  if (!start) return '';
  return formatElapsed((end ? Date.parse(end) : now) - Date.parse(start));
}

/** A loop's element counts: `120/230 done, 2 failed, 10 running`. */
export function elementCounts(elements: NonNullable<TaskStep['elements']>): string {
  const parts = [`${elements.completed}/${elements.total} done`];
  if (elements.reused) parts.push(`${elements.reused} reused`);
  if (elements.failed > 0) parts.push(`${elements.failed} failed`);
  if (elements.running > 0) parts.push(`${elements.running} running`);
  return parts.join(', ');
}

function summary(step: TaskStep): string {
  const counts = step.elements ? `${elementCounts(step.elements)}  ` : '';
  const handled = step.handled ? ' (handled by on_error)' : '';
  if (step.error) return `${counts}${step.error.code}: ${step.error.message}${handled}`;
  if (step.elements) return counts.trimEnd();
  // A use_workflow step names its child run (`skillflow tasks get <id>` shows it).
  if (step.child_task_id) return `child ${step.child_task_id}`;
  // A running long-running skill call names its stage (e.g. querying_upstream).
  if (step.stage) return `stage: ${step.stage}`;
  // A wait step sleeping on its timer names when it wakes.
  if (step.wake_at && step.status === 'running') return `waiting until ${step.wake_at}`;
  // An approval waiting for a decision names its expiry (`skillflow runs approve` decides it).
  if (step.approval && step.status === 'running')
    return `waiting for approval until ${step.approval.expires_at}`;
  // An event wait names its event (`skillflow events send` sends one).
  if (step.event && step.status === 'running')
    return `waiting for event ${step.event.name} until ${step.event.expires_at}`;
  if (!step.output_summary) return '';
  return Object.entries(step.output_summary)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
}

/** A queued run's place under flow control. */
function queueLine(queue: NonNullable<Task['queue']>): string {
  const place = queue.position === null ? 'place not known yet' : `position ${queue.position}`;
  const why =
    queue.reason === 'owner_cap'
      ? " (the owner's cap on runs at once)"
      : queue.reason === 'concurrency'
        ? " (the definition's concurrency limit)"
        : '';
  return `waiting for its turn: ${place}${why}`;
}

/** The lines describing a task; `color` adds ANSI colours, `frame` animates running steps. */
export function renderTask(
  task: Task,
  opts: { color?: boolean; frame?: number; now?: number } = {},
): string[] {
  const now = opts.now ?? Date.now();
  const paint = (status: string, text: string) =>
    opts.color && COLORS[status] ? `\x1b[${COLORS[status]}m${text}\x1b[0m` : text;
  const head = `${task.task_id}  ${paint(task.status, task.status)}  ${elapsed(task.started_at, task.finished_at, now)}`;
  // A parallel group's inner steps are indented under their group, a handler's under its step.
  const label = (step: TaskStep) => (step.group ? `  ${step.id}` : step.handler ? `  ↳ ${step.id}` : step.id);
  const width = Math.max(4, ...task.steps.map((s) => label(s).length));
  const lines = [head];
  if (task.rerun_of) lines.push(`  re-run of ${task.rerun_of}`);
  if (task.queue) lines.push(`  ${queueLine(task.queue)}`);
  for (const step of task.steps) {
    const symbol =
      step.status === 'running' && opts.frame !== undefined
        ? (SPINNER[opts.frame % SPINNER.length] ?? '◐')
        : SYMBOLS[step.status];
    const time = elapsed(step.started_at, step.finished_at, now).padStart(7);
    lines.push(
      `  ${paint(step.status, symbol)} ${label(step).padEnd(width)}  ${step.status.padEnd(9)} ${time}  ${summary(step)}`.trimEnd(),
    );
    // A loop names its first failed elements under it.
    for (const f of step.elements?.failures ?? [])
      lines.push(`      element ${f.index} › ${f.step}: ${f.error.code}: ${f.error.message}`);
  }
  if (task.error) lines.push(`  error: ${task.error.code}: ${task.error.message}`);
  return lines;
}

/** Redraws a task block in place on a TTY stream. */
export class LiveProgress {
  private drawn = 0;
  private frame = 0;
  private last: Task | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly stream: NodeJS.WriteStream) {}

  /** Draws the newest snapshot (and keeps elapsed times ticking between polls). */
  update(task: Task): void {
    this.last = task;
    this.draw();
    this.timer ??= setInterval(() => this.draw(), 200);
  }

  /** Draws the final state once more and stops ticking. */
  finish(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.last) this.draw(true);
  }

  private draw(final = false): void {
    if (!this.last) return;
    const lines = renderTask(this.last, { color: true, ...(final ? {} : { frame: this.frame++ }) });
    let text = this.drawn > 0 ? `\x1b[${this.drawn}A` : '';
    for (const line of lines) text += `\r\x1b[2K${line}\n`;
    // A shorter block than last time: clear what is left below it.
    for (let i = lines.length; i < this.drawn; i++) text += '\r\x1b[2K\n';
    if (this.drawn > lines.length) text += `\x1b[${this.drawn - lines.length}A`;
    this.stream.write(text);
    this.drawn = lines.length;
  }
}
