import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScheduleNotFoundError } from '@temporalio/client';
import { scheduleIdOf } from '../../api/services/runs.js';
import { createKey } from '../../lib/keys.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { scheduledShoutDefinition } from '../helpers/definitions.js';

const SCHEDULED = scheduledShoutDefinition('Hourly shout', ['every: 1h', 'timezone: Europe/Berlin']);

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
    expect(desc.policies).toEqual({ overlap: 'SKIP', catchupWindow: 300_000, pauseOnFailure: false });
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
  /** A definition every minute, with these extra schedule lines. */
  const everyMinute = (extra = '') =>
    SCHEDULED.replace('every: 1h', 'every: 1m').replace('timezone: Europe/Berlin', `timezone: UTC${extra}`);
  const policiesOf = async (id: string) =>
    (await h.env.client.schedule.getHandle(scheduleIdOf(id)).describe()).policies;

  it('sets each overlap policy and catch-up window on the Temporal Schedule, and updates them alone', async () => {
    const overlaps = {
      skip: 'SKIP',
      buffer_one: 'BUFFER_ONE',
      buffer_all: 'BUFFER_ALL',
      cancel_other: 'CANCEL_OTHER',
      terminate_other: 'TERMINATE_OTHER',
      allow_all: 'ALLOW_ALL',
    };
    for (const [overlap, temporal] of Object.entries(overlaps)) {
      const source = everyMinute(`\n    overlap: ${overlap}\n    catchup_window: 90s`);
      const created = await h.request('POST', '/v1/workflows', source, 'application/yaml');
      expect(created.status).toBe(201);
      expect(await policiesOf(created.json.id)).toEqual({
        overlap: temporal,
        catchupWindow: 90_000,
        pauseOnFailure: false,
      });
      expect((await h.request('DELETE', `/v1/workflows/${created.json.id}`)).status).toBe(204);
    }

    const created = await h.request('POST', '/v1/workflows', everyMinute(), 'application/yaml');
    const id = created.json.id as string;
    expect(await policiesOf(id)).toEqual({ overlap: 'SKIP', catchupWindow: 300_000, pauseOnFailure: false });
    const source = everyMinute('\n    overlap: buffer_one\n    catchup_window: 7d');
    expect((await h.request('PUT', `/v1/workflows/${id}`, source, 'application/yaml')).status).toBe(200);
    expect(await policiesOf(id)).toEqual({
      overlap: 'BUFFER_ONE',
      catchupWindow: 604_800_000,
      pauseOnFailure: false,
    });
    const shorter = everyMinute('\n    overlap: buffer_one\n    catchup_window: 10s');
    expect((await h.request('PUT', `/v1/workflows/${id}`, shorter, 'application/yaml')).status).toBe(200);
    expect(await policiesOf(id)).toEqual({
      overlap: 'BUFFER_ONE',
      catchupWindow: 10_000,
      pauseOnFailure: false,
    });
    await h.request('DELETE', `/v1/workflows/${id}`);
  });

  it('refuses a bad catch-up window with a diagnostic at the field', async () => {
    const res = await h.request(
      'POST',
      '/v1/workflows',
      everyMinute('\n    catchup_window: 8d'),
      'application/yaml',
    );
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('INVALID_DEFINITION');
    expect(res.json.error.details.diagnostics).toEqual([
      {
        code: 'INVALID_DURATION',
        message: 'Invalid catchup_window: use a duration such as 30s, 5m or 1h, from 10s to 7d.',
        path: 'start_when.schedule.catchup_window',
        line: 6,
        column: 21,
      },
    ]);
  });

  describe('backfill', () => {
    const MINUTE = 60_000;
    /** A past window from 30 s after a minute, `minutes` long: it holds `minutes` ticks of every 1m. */
    const window = (minutes: number, agoMinutes = minutes + 5) => {
      const start = Math.floor(Date.now() / MINUTE) * MINUTE - agoMinutes * MINUTE + 30_000;
      return {
        start: new Date(start).toISOString(),
        end: new Date(start + minutes * MINUTE).toISOString(),
      };
    };
    let id: string;
    beforeAll(async () => {
      const created = await h.request('POST', '/v1/workflows', everyMinute(), 'application/yaml');
      id = created.json.id;
      // Paused, so that only the backfill starts runs (a backfill runs on a paused schedule).
      expect((await h.request('POST', `/v1/workflows/${id}/schedule/pause`)).json.paused).toBe(true);
    });

    it("starts one run per tick of the window, with the schedule's trigger", async () => {
      const w = window(3);
      const res = await h.request('POST', `/v1/workflows/${id}/schedule/backfill`, {
        ...w,
        overlap: 'allow_all',
      });
      expect(res.status).toBe(202);
      expect(res.json).toEqual({ workflow_id: id, ticks: 3, ...w, overlap: 'allow_all' });
      // Visibility trails the starts: poll until the three runs are listed and done.
      let runs: { task_id: string; status: string; trigger: string }[] = [];
      for (let i = 0; i < 120 && runs.filter((r) => r.status === 'completed').length < 3; i++) {
        await new Promise((r) => setTimeout(r, 250));
        runs = (await h.request('GET', `/v1/workflows/${id}/runs`)).json.runs;
      }
      expect(runs.map((r) => [r.status, r.trigger]).sort()).toEqual([
        ['completed', 'schedule'],
        ['completed', 'schedule'],
        ['completed', 'schedule'],
      ]);
      // Each run is the tick's: the schedule names it after the tick's time.
      const ticks = [1, 2, 3].map((k) => new Date(Date.parse(w.start) + k * MINUTE - 30_000).toISOString());
      expect(runs.map((r) => r.task_id).sort()).toEqual(
        ticks.map((t) => `task_sched_${id}-${t.replace('.000Z', 'Z')}`),
      );
    });

    it('answers the schedule overlap when none is given, and a window without ticks with 0', async () => {
      const empty = {
        start: window(1).start,
        end: new Date(Date.parse(window(1).start) + 20_000).toISOString(),
      };
      const res = await h.request('POST', `/v1/workflows/${id}/schedule/backfill`, empty);
      expect(res.status).toBe(202);
      expect(res.json).toEqual({ workflow_id: id, ticks: 0, ...empty, overlap: 'skip' });
    });

    const refused = (path: string, message: string, extra = {}) => ({
      error: {
        code: 'INVALID_BACKFILL_WINDOW',
        message: `Invalid backfill window at ${path || '(root)'}: ${message}`,
        details: { issues: [{ path, message, location: 'body' }], ...extra },
      },
    });

    it('refuses every bad window with the whole 422 envelope', async () => {
      const w = window(3);
      const future = new Date(Date.now() + 10 * MINUTE).toISOString();
      const cases: [unknown, unknown][] = [
        [{ start: w.end, end: w.start }, refused('end', 'must be after start')],
        [{ start: w.start, end: w.start }, refused('end', 'must be after start')],
        [
          { start: w.start, end: future },
          refused('end', 'must not be in the future; a backfill runs past ticks'),
        ],
        [
          { start: new Date(Date.parse(w.start) - 1001 * MINUTE).toISOString(), end: w.start },
          refused('', 'holds more than 1000 ticks of the schedule', { ticks: 1001, max: 1000 }),
        ],
      ];
      for (const [body, expected] of cases) {
        const res = await h.request('POST', `/v1/workflows/${id}/schedule/backfill`, body);
        expect([res.status, res.json]).toEqual([422, expected]);
      }
      // 1,000 ticks exactly are allowed (with skip they mostly coincide; the count is what matters).
      const thousand = { start: new Date(Date.parse(w.start) - 1000 * MINUTE).toISOString(), end: w.start };
      await h.request('POST', `/v1/workflows/${id}/schedule/pause`);
      const ok = await h.request('POST', `/v1/workflows/${id}/schedule/backfill`, {
        ...thousand,
        overlap: 'skip',
      });
      expect([ok.status, ok.json.ticks]).toEqual([202, 1000]);
    });

    it("counts a cron schedule's ticks as its server lists them", async () => {
      const cron = everyMinute().replace('every: 1m', 'cron: "* * * * *"');
      const created = await h.request('POST', '/v1/workflows', cron, 'application/yaml');
      const cronId = created.json.id as string;
      await h.request('POST', `/v1/workflows/${cronId}/schedule/pause`);
      const w = window(3);
      const over = { start: new Date(Date.parse(w.start) - 1001 * MINUTE).toISOString(), end: w.start };
      const res = await h.request('POST', `/v1/workflows/${cronId}/schedule/backfill`, over);
      expect([res.status, res.json]).toEqual([
        422,
        refused('', 'holds more than 1000 ticks of the schedule', { ticks: 1001, max: 1000 }),
      ]);
      // A window starting and ending on a tick holds both.
      const onTicks = {
        start: new Date(Date.parse(w.start) - 30_000).toISOString(),
        end: new Date(Date.parse(w.end) - 30_000).toISOString(),
      };
      const ok = await h.request('POST', `/v1/workflows/${cronId}/schedule/backfill`, onTicks);
      expect([ok.status, ok.json]).toEqual([
        202,
        { workflow_id: cronId, ticks: 4, ...onTicks, overlap: 'skip' },
      ]);
      await h.request('DELETE', `/v1/workflows/${cronId}`);
    });

    it('refuses a malformed body with 400 before anything else', async () => {
      const res = await h.request('POST', `/v1/workflows/${id}/schedule/backfill`, {
        start: 'yesterday',
        end: '2026-01-01T00:00:00',
        overlap: 'SKIP',
      });
      const instant = 'must be an RFC 3339 instant with Z or an offset';
      const overlaps = '"skip"|"buffer_one"|"buffer_all"|"cancel_other"|"terminate_other"|"allow_all"';
      expect([res.status, res.json]).toEqual([
        400,
        {
          error: {
            code: 'INVALID_PARAMETER',
            message: `Invalid value at start: ${instant}`,
            details: {
              issues: [
                { path: 'start', message: instant },
                { path: 'end', message: instant },
                { path: 'overlap', message: `Invalid option: expected one of ${overlaps}` },
              ],
            },
          },
        },
      ]);
    });

    it("answers 409 without a schedule, 404 for another owner's and 403 for a key without the skill", async () => {
      const w = window(2);
      const manual = SCHEDULED.replace(
        'start_when:\n  schedule:\n    every: 1h\n    timezone: Europe/Berlin',
        'start_when:\n  manual: {}',
      );
      const created = await h.request('POST', '/v1/workflows', manual, 'application/yaml');
      const noSchedule = await h.request('POST', `/v1/workflows/${created.json.id}/schedule/backfill`, w);
      expect([noSchedule.status, noSchedule.json]).toEqual([
        409,
        {
          error: {
            code: 'CONFLICT',
            message: 'This workflow has no schedule (start_when is manual).',
            details: {},
          },
        },
      ]);

      const other = await h.request(
        'POST',
        `/v1/workflows/${id}/schedule/backfill`,
        w,
        undefined,
        h.otherToken,
      );
      expect([other.status, other.json]).toEqual([
        404,
        { error: { code: 'NOT_FOUND', message: 'No workflow definition with this id.', details: {} } },
      ]);

      const narrow = await createKey(h.api.deps.store, {
        name: 'narrow',
        scopes: ['workflows'],
        ownerId: 'owner_a',
      });
      const forbidden = await h.request(
        'POST',
        `/v1/workflows/${id}/schedule/backfill`,
        w,
        undefined,
        narrow.token,
      );
      expect([forbidden.status, forbidden.json]).toEqual([
        403,
        {
          error: {
            code: 'FORBIDDEN',
            message: 'The API key is not scoped to every skill this workflow uses.',
            details: { required_scope: ['skill:echo.shout'], skills: ['echo.shout'] },
          },
        },
      ]);
    });
  });
});
