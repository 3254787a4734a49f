/**
 * The task rendering of `tasks get --wait`: a running long-running call shows its stage, a
 * sleeping wait step when it wakes.
 */
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

  it('shows when a sleeping wait step wakes, and nothing more once it has', () => {
    const now = Date.parse('2026-01-01T00:00:03.000Z');
    const wait = { id: 'cool_down', wake_at: '2026-01-01T00:10:00.000Z' };
    expect(renderTask(task(wait), { now })[1]).toBe(
      '  ◐ cool_down  running      3.0s  waiting until 2026-01-01T00:10:00.000Z',
    );
    const woke = { ...wait, status: 'completed' as const, finished_at: '2026-01-01T00:10:00.000Z' };
    expect(renderTask(task(woke), { now })[1]).toBe('  ✔ cool_down  completed  10m00s');
  });
});
