/**
 * Tasks: workflow runs and long-running skill calls, polled by `task_id`
 * (GET /v1/tasks/{task_id}) and cancelled (POST /v1/tasks/{task_id}/cancel).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SkillflowClientError } from './errors.js';
import type { Task } from './generated.js';
import { seg, type Transport } from './http.js';
import { TERMINAL_STATUSES } from './types.js';

/** Options of {@link TasksClient.wait}. */
export interface WaitOptions {
  /** Poll interval in ms. Default 500. */
  intervalMs?: number;
  /** Give up after this many ms with a `WAIT_TIMEOUT` {@link SkillflowClientError}. Default 600 000. */
  timeoutMs?: number;
  /** Called with every polled snapshot, the final one included. */
  onProgress?: (task: Task) => void;
  signal?: AbortSignal;
}

/** `client.tasks`. */
export interface TasksClient {
  /** The task's current state. */
  get(taskId: string, options?: { signal?: AbortSignal }): Promise<Task>;
  /**
   * Polls until the task is completed, failed or cancelled and returns that final state. A
   * failed or cancelled task is returned, not thrown: check `status`.
   */
  wait(taskId: string, options?: WaitOptions): Promise<Task>;
  /** Requests cancellation (the run stops at its current step); returns the state after it. */
  cancel(taskId: string): Promise<Task>;
}

/** True when the task will not change any more. */
export function isTerminal(task: Pick<Task, 'status'>): boolean {
  return TERMINAL_STATUSES.includes(task.status);
}

/** Creates `client.tasks`. */
export function createTasksClient(http: Transport): TasksClient {
  const get = async (taskId: string, options: { signal?: AbortSignal } = {}): Promise<Task> =>
    (await http.send<Task>({ method: 'GET', path: `/v1/tasks/${seg(taskId)}`, signal: options.signal })).body;
  return {
    get,
    async wait(taskId, options = {}) {
      const interval = options.intervalMs ?? 500;
      const deadline = Date.now() + (options.timeoutMs ?? 600_000);
      for (;;) {
        const task = await get(taskId, { signal: options.signal });
        options.onProgress?.(task);
        if (isTerminal(task)) return task;
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new SkillflowClientError(
            'WAIT_TIMEOUT',
            `Task ${taskId} is still ${task.status} after waiting ${options.timeoutMs ?? 600_000} ms.`,
          );
        }
        try {
          await sleep(Math.min(interval, left), undefined, { signal: options.signal });
        } catch (err) {
          throw new SkillflowClientError('ABORTED', 'Waiting for the task was aborted.', { cause: err });
        }
      }
    },
    cancel: async (taskId) =>
      (await http.send<Task>({ method: 'POST', path: `/v1/tasks/${seg(taskId)}/cancel` })).body,
  };
}
