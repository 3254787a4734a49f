/**
 * Fair use between tenants, on a real Temporal test server with no worker, so
 * started runs and calls stay open: per-owner caps on definitions, schedules, running runs and
 * open skill-call tasks, and a manual schedule trigger that never piles up runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleIdOf } from '../../api/services/runs.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { scheduledShoutDefinition } from '../helpers/definitions.js';

const manual = (title: string) => `title: ${title}
start_when:
  manual: {}
steps:
  - id: shout
    use_app_skill: echo.shout
    input:
      requests:
        - text: hi
`;
const scheduled = (title: string) => scheduledShoutDefinition(title, ['every: 1h', 'timezone: UTC']);

function limitReached(limit: string, max: number, what: string) {
  return {
    error: {
      code: 'OWNER_LIMIT_REACHED',
      message: `This account may have at most ${max} ${what}.`,
      details: { limit, max },
    },
  };
}

describe('per-owner caps', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await startEngine({
      worker: false,
      config: {
        OWNER_MAX_DEFINITIONS: 3,
        OWNER_MAX_SCHEDULES: 1,
        OWNER_MAX_RUNNING_RUNS: 2,
        OWNER_MAX_QUEUED_TASKS: 1,
      },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  /** Visibility trails a start by a moment: wait until it counts `n` open tasks of the owner. */
  async function untilOpen(kind: string, owner: string, n: number): Promise<void> {
    const query = `OwnerId = "${owner}" AND TaskKind = "${kind}" AND ExecutionStatus = "Running"`;
    for (let i = 0; i < 80; i++) {
      if ((await h.env.client.workflow.count(query)).count >= n) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`visibility never showed ${n} open ${kind} tasks`);
  }

  it('caps definitions and schedules per owner, leaving other owners alone', async () => {
    const s1 = await h.request('POST', '/v1/workflows', scheduled('S1'), 'application/yaml');
    expect(s1.status).toBe(201);
    const s2 = await h.request('POST', '/v1/workflows', scheduled('S2'), 'application/yaml');
    expect([s2.status, s2.json]).toEqual([
      429,
      limitReached('schedules', 1, 'scheduled workflow definitions'),
    ]);

    const m1 = await h.request('POST', '/v1/workflows', manual('M1'), 'application/yaml');
    const m2 = await h.request('POST', '/v1/workflows', manual('M2'), 'application/yaml');
    expect([m1.status, m2.status]).toEqual([201, 201]);
    // Turning a manual definition into a scheduled one is a new schedule too.
    const toSchedule = await h.request(
      'PUT',
      `/v1/workflows/${m1.json.id}`,
      scheduled('M1'),
      'application/yaml',
    );
    expect([toSchedule.status, toSchedule.json]).toEqual([
      429,
      limitReached('schedules', 1, 'scheduled workflow definitions'),
    ]);
    // A new version of an existing schedule is not.
    const s1v2 = await h.request(
      'PUT',
      `/v1/workflows/${s1.json.id}`,
      scheduled('S1 v2'),
      'application/yaml',
    );
    expect(s1v2.status).toBe(200);

    const m3 = await h.request('POST', '/v1/workflows', manual('M3'), 'application/yaml');
    expect([m3.status, m3.json]).toEqual([429, limitReached('definitions', 3, 'workflow definitions')]);
    const other = await h.request('POST', '/v1/workflows', manual('B1'), 'application/yaml', h.otherToken);
    expect(other.status).toBe(201);

    const del = await h.request('DELETE', `/v1/workflows/${m2.json.id}`);
    expect(del.status).toBe(204);
    expect((await h.request('POST', '/v1/workflows', manual('M3'), 'application/yaml')).status).toBe(201);
  });

  it('caps concurrently running workflow runs per owner', async () => {
    const def = await h.request('POST', '/v1/workflows', manual('Runs'), 'application/yaml', h.otherToken);
    expect(def.status).toBe(201);
    const run = () =>
      h.request('POST', `/v1/workflows/${def.json.id}/runs`, { inputs: {} }, undefined, h.otherToken);
    const started = [await run(), await run()];
    expect(started.map((r) => [r.status, r.json])).toEqual([
      [202, expect.objectContaining({ task_id: expect.stringMatching(/^task_/) })],
      [202, expect.objectContaining({ task_id: expect.stringMatching(/^task_/) })],
    ]);
    await untilOpen('workflow_run', 'owner_b', 2);
    const third = await run();
    expect([third.status, third.json]).toEqual([
      429,
      limitReached('running_runs', 2, 'running workflow runs'),
    ]);
  });

  it('caps open skill-call tasks per owner; a quick call answered inline opens none', async () => {
    // With no worker, a long-running call stays open.
    const call = () => h.request('POST', '/v1/apps/echo/skills/slow_echo', { requests: [{ text: 'x' }] });
    const first = await call();
    expect([first.status, first.json]).toEqual([
      202,
      { task_id: expect.stringMatching(/^task_/), embed_id: expect.stringMatching(/^emb_/) },
    ]);
    await untilOpen('skill_call', 'owner_a', 1);
    const second = await call();
    expect([second.status, second.json]).toEqual([
      429,
      limitReached('queued_tasks', 1, 'open skill-call tasks'),
    ]);
    const quick = await h.request('POST', '/v1/apps/echo/skills/shout', { requests: [{ text: 'x' }] });
    expect([quick.status, quick.json.results]).toEqual([200, [{ text: 'X' }]]);
    await h.env.client.workflow.getHandle(first.json.task_id).terminate();
  });
});

describe('manual schedule triggers', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await startEngine({ worker: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('refuses a trigger while a run of the schedule is running, so runs never pile up', async () => {
    const def = await h.request('POST', '/v1/workflows', scheduled('Pile'), 'application/yaml');
    expect(def.status).toBe(201);
    const handle = h.env.client.schedule.getHandle(scheduleIdOf(def.json.id));
    const first = await h.request('POST', `/v1/workflows/${def.json.id}/schedule/trigger`);
    expect(first.status).toBe(200);
    // No worker: the triggered run stays open.
    let running = 0;
    for (let i = 0; i < 80 && running === 0; i++) {
      running = (await handle.describe()).info.runningActions.length;
      if (running === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(running).toBe(1);
    const second = await h.request('POST', `/v1/workflows/${def.json.id}/schedule/trigger`);
    expect([second.status, second.json]).toEqual([
      409,
      {
        error: {
          code: 'CONFLICT',
          message: 'A run of this schedule is still running; trigger it again later.',
          details: {},
        },
      },
    ]);
    await new Promise((r) => setTimeout(r, 500));
    expect((await handle.describe()).info.runningActions).toHaveLength(1);
  });
});
