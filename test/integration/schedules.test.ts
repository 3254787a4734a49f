import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScheduleNotFoundError } from '@temporalio/client';
import { scheduleIdOf } from '../../api/services/runs.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

const SCHEDULED = `title: Hourly shout
start_when:
  schedule:
    every: 1h
    timezone: Europe/Berlin
steps:
  - id: shout
    use_app_skill: echo.shout
    input:
      requests:
        - text: tick
`;

describe('scheduled definitions', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await startEngine();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('creates a Temporal Schedule with explicit timezone and policies, triggers, pauses, updates and deletes it', async () => {
    const created = await h.request('POST', '/v1/workflows', SCHEDULED, 'application/yaml');
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    expect(created.json.trigger_type).toBe('schedule');
    expect(created.json.schedule).toMatchObject({
      schedule_id: scheduleIdOf(id),
      paused: false,
      timezone: 'Europe/Berlin',
    });
    expect(created.json.schedule.next_runs).toHaveLength(5);

    const desc = await h.env.client.schedule.getHandle(scheduleIdOf(id)).describe();
    expect(desc.policies).toMatchObject({ overlap: 'SKIP', catchupWindow: 300_000, pauseOnFailure: false });
    expect(desc.spec.intervals?.map((i) => i.every)).toEqual([3_600_000]);
    expect(desc.spec.timezone).toBe('Europe/Berlin');

    const triggered = await h.request('POST', `/v1/workflows/${id}/schedule/trigger`);
    expect(triggered.status).toBe(200);
    let runs: { task_id: string; status: string; trigger: string }[] = [];
    for (let i = 0; i < 60 && !runs.some((r) => r.status === 'completed'); i++) {
      await new Promise((r) => setTimeout(r, 250));
      runs = (await h.request('GET', `/v1/workflows/${id}/runs`)).json.runs;
    }
    expect(runs[0]).toMatchObject({ status: 'completed', trigger: 'schedule', definition_version: 1 });
    expect(runs[0]!.task_id).toMatch(new RegExp(`^task_sched_${id}-`));
    const task = await h.waitForTask(runs[0]!.task_id, (t) => t.status === 'completed');
    expect(task.result.outputs.shout).toEqual({ results: ['TICK'], result_count: 1 });

    const paused = await h.request('POST', `/v1/workflows/${id}/schedule/pause`);
    expect(paused.json.paused).toBe(true);
    const resumed = await h.request('POST', `/v1/workflows/${id}/schedule/resume`);
    expect(resumed.json.paused).toBe(false);

    const updated = await h.request(
      'PUT',
      `/v1/workflows/${id}`,
      SCHEDULED.replace('every: 1h', 'cron: "0 9 * * 1-5"'),
      'application/yaml',
    );
    expect(updated.json.version).toBe(2);
    const desc2 = await h.env.client.schedule.getHandle(scheduleIdOf(id)).describe();
    expect(desc2.spec.calendars?.[0]).toMatchObject({
      hour: [{ start: 9, end: 9, step: 1 }],
      dayOfWeek: [{ start: 'MONDAY', end: 'FRIDAY', step: 1 }],
    });
    expect(desc2.spec.timezone).toBe('Europe/Berlin');

    expect((await h.request('DELETE', `/v1/workflows/${id}`)).status).toBe(204);
    await expect(h.env.client.schedule.getHandle(scheduleIdOf(id)).describe()).rejects.toBeInstanceOf(
      ScheduleNotFoundError,
    );
  });

  it('answers schedule control on a manual definition with 409', async () => {
    const manual = SCHEDULED.replace(
      'start_when:\n  schedule:\n    every: 1h\n    timezone: Europe/Berlin',
      'start_when:\n  manual: {}',
    );
    const created = await h.request('POST', '/v1/workflows', manual, 'application/yaml');
    const res = await h.request('POST', `/v1/workflows/${created.json.id}/schedule/pause`);
    expect(res.status).toBe(409);
    expect(res.json.error).toEqual({
      code: 'CONFLICT',
      message: 'This workflow has no schedule (start_when is manual).',
      details: {},
    });
  });
});
