/** `skillflow tasks get <task_id> [--wait] [--json]` and `tasks cancel <task_id>`. */
import type { Command } from 'commander';
import { isTerminal, type Task } from '../../sdk/index.js';
import type { CliContext } from '../context.js';
import { CliError, EXIT, out, printJson } from '../output.js';
import { LiveProgress, renderTask } from '../progress.js';
import { skillResultLines } from '../results.js';

/** Options shared by every command that can wait for a task. */
export interface WaitFlags {
  wait?: boolean;
  json?: boolean;
  interval?: string;
  timeout?: string;
}

/** The exit code a task's status maps to. */
export function exitCodeOf(task: Pick<Task, 'status'>): number {
  if (task.status === 'failed') return EXIT.TASK_FAILED;
  if (task.status === 'cancelled') return EXIT.TASK_CANCELLED;
  return EXIT.OK;
}

/**
 * Shows (and with `--wait` follows) a task, and a completed skill call's answer as a quick call
 * shows it (cli/results.ts); returns the exit code.
 */
export async function showTask(ctx: CliContext, taskId: string, flags: WaitFlags): Promise<number> {
  const tty = process.stdout.isTTY === true && !flags.json;
  let task: Task;
  if (!flags.wait) {
    task = await ctx.client.tasks.get(taskId);
  } else {
    const live = tty ? new LiveProgress(process.stdout) : undefined;
    try {
      task = await ctx.client.tasks.wait(taskId, {
        intervalMs: flags.interval ? Number(flags.interval) : 500,
        timeoutMs: flags.timeout ? Number(flags.timeout) * 1000 : 600_000,
        ...(live ? { onProgress: (t: Task) => live.update(t) } : {}),
      });
    } finally {
      live?.finish();
    }
    if (live) {
      for (const line of skillResultLines(task.result)) out(line);
      return exitCodeOf(task);
    }
  }
  if (flags.json) printJson(task);
  else for (const line of [...renderTask(task, { color: tty }), ...skillResultLines(task.result)]) out(line);
  // A snapshot of a task still running is not a failure.
  return isTerminal(task) ? exitCodeOf(task) : EXIT.OK;
}

/** Adds the wait-related flags to a command. */
export function withWaitFlags(cmd: Command): Command {
  return cmd
    .option('--interval <ms>', 'poll interval while waiting, in ms', '500')
    .option('--timeout <s>', 'give up waiting after this many seconds (exit 5)', '600');
}

/** Registers `tasks`. */
export function registerTasks(
  program: Command,
  context: () => CliContext,
  run: (fn: () => Promise<number>) => Promise<void>,
): void {
  const tasks = program
    .command('tasks')
    .description('Poll and cancel tasks (workflow runs and long-running skill calls)');
  withWaitFlags(
    tasks
      .command('get <task_id>')
      .description('Show a task; --wait follows it to the end (live progress on a terminal)')
      .option('--wait', 'poll until the task is completed, failed or cancelled')
      .option('--json', 'print only the final task JSON (for scripts)'),
  ).action((taskId: string, flags: WaitFlags) => run(() => showTask(context(), taskId, flags)));

  tasks
    .command('cancel <task_id>')
    .description(
      'Request cancellation; the run stops at its current step (exit 1 if it had already finished)',
    )
    .option('--json', 'print the task JSON')
    .action((taskId: string, flags: { json?: boolean }) =>
      run(async () => {
        const { client } = context();
        // A finished task has nothing to cancel: say so and fail, rather than report a request.
        const current = await client.tasks.get(taskId);
        if (isTerminal(current))
          throw new CliError(
            `${current.task_id} had already finished (${current.status}); nothing to cancel.`,
            EXIT.FAILURE,
            'ALREADY_FINISHED',
          );
        const task = await client.tasks.cancel(taskId);
        if (flags.json) printJson(task);
        else out(`cancellation requested: ${task.task_id} is ${task.status}`);
        return EXIT.OK;
      }),
    );
}
