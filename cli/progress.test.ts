/** The task rendering of `tasks get --wait`: a running long-running call shows its stage. */
import { describe, expect, it } from 'vitest';
import type { Task } from '../sdk/index.js';
import { renderTask } from './progress.js';

const task = (step: Partial<Task['steps'][number]>): Task =>
  ({
    task_id: 'task_1',
    status: 'running',
    started_at: '2026-01-01T00:00:00.000Z',
    finished_at: null,
    steps: [
      {
        id: 'electronics.search_power_designs',
        status: 'running',
        started_at: '2026-01-01T00:00:00.000Z',
        finished_at: null,
        output_summary: null,
        error: null,
        ...step,
      },
    ],
  }) as unknown as Task;

describe('renderTask', () => {
  it('shows the stage of a running long-running skill call', () => {
    const now = Date.parse('2026-01-01T00:00:03.000Z');
    expect(renderTask(task({ stage: 'querying_upstream' }), { now })).toEqual([
      'task_1  running  3.0s',
      '  ◐ electronics.search_power_designs  running      3.0s  stage: querying_upstream',
    ]);
    expect(renderTask(task({}), { now })[1]).toBe('  ◐ electronics.search_power_designs  running      3.0s');
  });
});
