/**
 * The local cluster under faults: two API and two worker processes on a Temporal server built
 * from its Go module and PostgreSQL (`npm run cluster`'s topology). 200 runs of a quick and a
 * long-running definition start through both APIs while a scheduled definition ticks every
 * minute; meanwhile a worker is SIGKILLed, the Temporal server restarted, PostgreSQL restarted
 * and an API SIGKILLed. Afterwards every run has completed, none is lost or duplicated, each chat
 * message exists once per run and step, and every schedule tick ran once. A limit of 10 then
 * allows 10 requests in total through both APIs.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scheduleIdOf } from '../../api/services/runs.js';
import { createKey } from '../../lib/keys.js';
import { openStore } from '../../lib/store/db.js';
import { postgresAvailable } from '../helpers/postgres.js';
import { PROJECT_ROOT } from '../../lib/config.js';
import type { Cluster } from '../../scripts/cluster/cluster.js';
import { startLoopbackCluster, type LoopbackCluster } from '../../scripts/cluster/loopback.js';

const RUNS = 200;

/** A domain search, then a chat message with its count. */
const QUICK = readFileSync(path.join(PROJECT_ROOT, 'definitions/examples/domain-ideas.yaml'), 'utf8');
const LONG = `title: Chaos long
start_when:
  manual: {}
steps:
  - id: first
    send_chat_message:
      title: Long
      message: started
  - id: pause
    wait: { duration: 20s }
  - id: last
    send_chat_message:
      title: Long
      message: done
`;
const SCHEDULED = `title: Chaos scheduled
start_when:
  schedule:
    every: 1m
    timezone: UTC
steps:
  - id: tick
    send_chat_message:
      title: Tick
      message: tick
`;

// Needs PostgreSQL's server binaries (Debian's package, which .ci/run installs) and Go: without
// them a developer's machine skips it; under CI=true it always runs, and fails without them.
describe.runIf(process.env.CI === 'true' || postgresAvailable())('the cluster under faults', () => {
  let cluster: Cluster;
  let loopback: LoopbackCluster;
  const log: string[] = [];

  beforeAll(async () => {
    loopback = await startLoopbackCluster({
      log: (m) => log.push(m),
      env: {
        RATE_LIMIT_PRO_PER_MINUTE: '100000',
        RATE_LIMIT_FREE_PER_MINUTE: '10',
        OWNER_MAX_RUNNING_RUNS: '1000',
      },
    });
    cluster = loopback.cluster;
  }, 1_500_000);

  let failed = false;
  afterEach((ctx) => {
    if (ctx.task.result?.state === 'fail') failed = true;
  });
  afterAll(async () => {
    // A failed run keeps its logs for a look (the path is printed).
    await loopback?.close({ keepLogs: failed });
    if (failed && loopback) process.stderr.write(`cluster logs kept in ${loopback.dataDir}/logs\n`);
  }, 120_000);

  const call = async (api: number, method: string, route: string, body?: unknown, headers = {}) => {
    const res = await fetch(`${cluster.apiUrls[api]}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${cluster.apiKey}`,
        ...(body !== undefined && {
          'content-type': typeof body === 'string' ? 'application/yaml' : 'application/json',
        }),
        ...headers,
      },
      ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };

  /** Starts a run through `api`, retried through either API with the same key until it answers 202. */
  const startRun = async (first: number, defId: string): Promise<string> => {
    const key = randomUUID();
    let last = '';
    for (let attempt = 0; attempt < 240; attempt++) {
      const api = (first + attempt) % cluster.apis.length;
      if (!cluster.apis[api]!.running) continue;
      try {
        const res = await call(
          api,
          'POST',
          `/v1/workflows/${defId}/runs`,
          { inputs: {} },
          { 'idempotency-key': key },
        );
        if (res.status === 202) return res.body.task_id as string;
        last = `api ${api}: ${res.status} ${JSON.stringify(res.body)}`;
      } catch (err) {
        // connection refused or reset: the API is down or restarting
        last = `api ${api}: ${(err as Error).message}`;
      }
      await sleep(500);
    }
    throw new Error(`a run start was never answered; last: ${last}`);
  };

  it('completes every run exactly once through a worker kill, Temporal and PostgreSQL restarts and an API kill', async () => {
    const defs: Record<string, string> = {};
    for (const [name, source] of Object.entries({ quick: QUICK, long: LONG, scheduled: SCHEDULED })) {
      const res = await call(0, 'POST', '/v1/workflows', source);
      expect(res.status).toBe(201);
      defs[name] = res.body.id as string;
    }
    const scheduleStart = Date.now();

    const chaos: Record<number, () => Promise<void>> = {
      40: async () => {
        await cluster.workers[0]!.kill();
        setTimeout(() => cluster.workers[0]!.start(), 5_000);
      },
      80: () => cluster.restartTemporal(),
      120: () => cluster.restartPostgres(),
      160: async () => {
        await cluster.apis[1]!.kill();
        setTimeout(() => cluster.apis[1]!.start(), 10_000);
      },
    };
    const started: { id: string; quick: boolean }[] = [];
    let next = 0;
    const starter = async () => {
      while (next < RUNS) {
        const n = next++;
        const fault = chaos[n];
        if (fault) await fault();
        const quick = n % 5 < 3;
        started.push({ id: await startRun(n % 2, quick ? defs.quick! : defs.long!), quick });
      }
    };
    await Promise.all([starter(), starter(), starter(), starter()]);
    const taskIds = started.map((s) => s.id);
    expect(new Set(taskIds).size).toBe(RUNS);

    // Every run reaches an end; the APIs answer again after their restarts.
    const finished = new Map<string, Record<string, unknown>>();
    const deadline = Date.now() + 300_000;
    while (finished.size < RUNS && Date.now() < deadline) {
      for (const id of taskIds.filter((t) => !finished.has(t))) {
        const res = await call(0, 'GET', `/v1/tasks/${id}`).catch(() => undefined);
        if (res?.status === 200 && ['completed', 'failed', 'cancelled'].includes(res.body.status as string))
          finished.set(id, res.body);
      }
      if (finished.size < RUNS) await sleep(2_000);
    }
    // Every run ended, and completed: a failure shows its steps' errors here.
    expect(finished.size).toBe(RUNS);
    const notCompleted = [...finished.values()]
      .filter((t) => t.status !== 'completed')
      .map((t) => ({ task_id: t.task_id, status: t.status, steps: t.steps, error: t.error }));
    expect(notCompleted).toEqual([]);

    // At least two schedule ticks have passed since the schedule was saved.
    const waitTicks = scheduleStart + 150_000 - Date.now();
    if (waitTicks > 0) await sleep(waitTicks);

    const connection = await Connection.connect({ address: cluster.temporalAddress });
    const namespace = cluster.settings.CLUSTER_NAMESPACE;
    // Raw visibility rows: ids and counts only (memos and arguments are encrypted).
    const workflowIds = async (query: string): Promise<string[]> => {
      const ids: string[] = [];
      let nextPageToken: Uint8Array | undefined;
      do {
        const page = await connection.workflowService.listWorkflowExecutions({
          namespace,
          query,
          pageSize: 1000,
          ...(nextPageToken && { nextPageToken }),
        });
        ids.push(...page.executions.map((e) => e.execution!.workflowId!));
        nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
      } while (nextPageToken);
      return ids;
    };
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    try {
      // None lost or duplicated: Temporal holds exactly the 200 started runs of the two definitions.
      const ids = await workflowIds(`DefinitionId IN ('${defs.quick}', '${defs.long}')`);
      expect(ids.sort()).toEqual([...taskIds].sort());

      // Each schedule tick started one run (a tick's workflow id carries its scheduled time).
      const schedule = await connection.workflowService.describeSchedule({
        namespace,
        scheduleId: scheduleIdOf(defs.scheduled!),
      });
      const taken = Number(schedule.info!.actionCount);
      const ticks = await workflowIds(`DefinitionId = '${defs.scheduled}'`);
      expect(taken).toBeGreaterThanOrEqual(2);
      expect(ticks.length).toBe(taken);
      expect(new Set(ticks).size).toBe(ticks.length);

      // One chat message per run and step: quick runs 1, long runs 2, ticks 1.
      const rows = await db.query<{ task_id: string; step_id: string; n: string }>(
        `SELECT task_id, step_id, count(*) AS n FROM chat_messages WHERE owner_id = 'cluster' GROUP BY 1, 2`,
      );
      expect(rows.rows.filter((r) => r.n !== '1')).toEqual([]);
      const quick = started.filter((s) => s.quick).length;
      expect(rows.rows.length).toBe(quick + 2 * (RUNS - quick) + ticks.length);
    } finally {
      await db.end();
      await connection.close();
    }
  }, 1_200_000);

  it('counts a limit of 10 once across both APIs: 10 answers in total, then 429', async () => {
    const store = await openStore({
      databaseUrl: cluster.databaseUrl,
      pgliteDir: path.join(loopback.dataDir, 'unused'),
    });
    const { token } = await createKey(store, {
      name: 'free',
      scopes: ['*'],
      ownerId: 'free_owner',
      tier: 'free',
    });
    await store.close();
    const statuses: number[] = [];
    let refusal: unknown;
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${cluster.apiUrls[i % 2]}/v1/workflows`, {
        headers: { authorization: `Bearer ${token}` },
      });
      statuses.push(res.status);
      if (res.status === 429) refusal = await res.json();
      else await res.body?.cancel();
    }
    expect(statuses.filter((s) => s === 200).length).toBe(10);
    expect(statuses.filter((s) => s === 429).length).toBe(10);
    expect(refusal).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: expect.stringMatching(/^The free tier allows 10 requests per minute; retry in \d+ s\.$/),
        details: { tier: 'free', limit: 10, window_seconds: 60, retry_after_seconds: expect.any(Number) },
      },
    });
  });
});
