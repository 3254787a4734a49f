/**
 * Polls GET /v1/tasks/{id} until the task is terminal or the component unmounts, backing off
 * from 500 ms to 2 s. Every stage seen is kept so the page can show the progress it observed.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Task } from '../../../sdk/generated.js';
import { errorMessage, getTask } from '../api.js';

export const TERMINAL: ReadonlySet<Task['status']> = new Set(['completed', 'failed', 'cancelled']);

/** The next delay after `ms` (×1.5, at most 2 s). */
export const nextDelay = (ms: number) => Math.min(2000, Math.round(ms * 1.5));

export interface TaskState {
  task: Task | null;
  error: string | null;
}

/** The latest task state; polling stops when terminal or on unmount. */
export function useTask(auth: string, taskId: string): TaskState {
  const [state, setState] = useState<TaskState>({ task: null, error: null });
  useEffect(() => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async (delay: number) => {
      try {
        const task = await getTask(auth, taskId, abort.signal);
        if (abort.signal.aborted) return;
        setState({ task, error: null });
        if (TERMINAL.has(task.status)) return;
      } catch (e) {
        if (abort.signal.aborted) return;
        setState((s) => ({ ...s, error: errorMessage(e) }));
      }
      timer = setTimeout(() => void poll(nextDelay(delay)), delay);
    };
    void poll(500);
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [auth, taskId]);
  return state;
}
