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

  it("shows a queued run's place under flow control, and why it waits", () => {
    const now = Date.parse('2026-01-01T00:00:03.000Z');
    const pending = { id: 'sync', status: 'pending' as const, started_at: null };
    const queued = (queue: Task['queue']) => ({ ...task(pending), status: 'queued' as const, queue });
    expect(renderTask(queued({ position: 3, reason: 'concurrency' }), { now })).toEqual([
      'task_1  queued  3.0s',
      "  waiting for its turn: position 3 (the definition's concurrency limit)",
      '  ○ sync  pending',
    ]);
    expect(renderTask(queued({ position: 1, reason: 'owner_cap' }), { now })[1]).toBe(
      "  waiting for its turn: position 1 (the owner's cap on runs at once)",
    );
    expect(renderTask(queued({ position: null, reason: null }), { now })[1]).toBe(
      '  waiting for its turn: place not known yet',
    );
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

  it("shows a loop's element counts and first failures, and indents group and handler steps", () => {
    const now = Date.parse('2026-01-01T00:00:03.000Z');
    const base = {
      started_at: '2026-01-01T00:00:00.000Z',
      finished_at: null,
      output_summary: null,
      error: null,
    };
    const t = {
      task_id: 'task_1',
      status: 'running',
      started_at: '2026-01-01T00:00:00.000Z',
      finished_at: null,
      steps: [
        {
          ...base,
          id: 'each_name',
          status: 'running',
          elements: {
            total: 230,
            completed: 120,
            failed: 1,
            running: 10,
            failures: [
              {
                index: 7,
                step: 'check',
                error: { code: 'NOT_FOUND', message: 'The resource does not exist.' },
              },
            ],
          },
        },
        { ...base, id: 'both', status: 'running' },
        { ...base, id: 'left', status: 'running', group: 'both' },
        {
          ...base,
          id: 'lookup',
          status: 'failed',
          finished_at: '2026-01-01T00:00:01.000Z',
          error: { code: 'NOT_FOUND', message: 'The resource does not exist.' },
          handled: true,
        },
        { ...base, id: 'tell', status: 'running', handler: 'lookup' },
        { ...base, id: 'score', status: 'running', child_task_id: 'task_1.1' },
      ],
    } as unknown as Task;
    expect(renderTask(t, { now })).toEqual([
      'task_1  running  3.0s',
      '  ◐ each_name  running      3.0s  120/230 done, 1 failed, 10 running',
      '      element 7 › check: NOT_FOUND: The resource does not exist.',
      '  ◐ both       running      3.0s',
      '  ◐   left     running      3.0s',
      '  ✖ lookup     failed       1.0s  NOT_FOUND: The resource does not exist. (handled by on_error)',
      '  ◐   ↳ tell   running      3.0s',
      '  ◐ score      running      3.0s  child task_1.1',
    ]);
  });
});
