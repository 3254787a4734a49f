/**
 * The local cluster under faults: two API and two worker processes on a Temporal server built
 * from its Go module and PostgreSQL (`npm run cluster`'s topology). 200 runs start through both
 * APIs (quick: a domain search and a chat message; long-running: a 20-s wait between two
 * messages; a decision on a domain search; a domain search whose upstream always answers 503),
 * with 20 long-running power-design skill calls beside them, under a power provider limit they
 * must wait for, while a scheduled definition ticks every minute; meanwhile a worker is
 * SIGKILLed, the Temporal server restarted, PostgreSQL restarted and an API SIGKILLed.
 * Afterwards every run and call has completed, except the runs whose upstream failed, which
 * failed with UPSTREAM_UNAVAILABLE; none is lost or duplicated; each chat message exists once
 * per run and step; each call and each decision is billed once; every schedule tick ran once.
 * A limit of 10 then allows 10 requests in total through both APIs.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scheduleIdOf } from '../../api/services/runs.js';
import { createKey } from '../../lib/keys.js';
import { openStore } from '../../lib/store/db.js';
import { domainSearchDefinition } from '../helpers/definitions.js';
import { postgresAvailable } from '../helpers/postgres.js';
import { PROJECT_ROOT } from '../../lib/config.js';
import { generateChatKeyPair } from '../../sdk/chat-keys.js';
import type { Cluster } from '../../scripts/cluster/cluster.js';
import { startLoopbackCluster, type LoopbackCluster } from '../../scripts/cluster/loopback.js';

const RUNS = 200;

/** How a run whose domain search upstream always answers 503 fails. */
const FAULT_ERROR = {
  code: 'UPSTREAM_UNAVAILABLE',
  message: 'A step failed: All 1 domain search(es) failed upstream; nothing could be checked.',
  details: { step: 'search' },
};

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
/** A domain search, then a decision on its results, then a message on either branch. */
const DECIDE = domainSearchDefinition(
  'Chaos decide',
  'cedar.com',
  `  - id: worth_it
    decide:
      type: noul
      question: "Is cedar.com among the results?"
      context: "{{json steps.search}}"
      fallback: false
  - id: notify
    if: $nodes.worth_it.output.answer == true
    send_chat_message:
      title: Decided
      message: "yes"
  - id: not_found
    if: "!$nodes.worth_it.output.answer"
    send_chat_message:
      title: Decided
      message: "no"
`,
);
/** A domain search whose upstream answers 503 to every request (the shop simulator's magic name). */
const FAULT = domainSearchDefinition(
  'Chaos upstream fault',
  'fault-503.com',
  `  - id: notify
    send_chat_message:
      title: Never
      message: never
`,
);
const POWER_CALLS = 20;
const POWER = '/v1/apps/electronics/skills/search_power_designs';
/** Call `i`'s requirement: each one its own, so none is answered from the design cache. */
const powerRequest = (i: number) => ({
  requests: [{ vinMin: 10, vinMax: 24, vout: [3 + i / 10], iout: [2], max_results: 2 }],
});

type Kind = 'quick' | 'long' | 'decide' | 'fault';
/** The kind of run `n`: 120 quick, 40 long-running, 30 decisions, 10 upstream faults. */
const kindOf = (n: number): Kind =>
  n % 20 === 19 ? 'fault' : n % 5 === 4 ? 'decide' : n % 5 === 3 ? 'long' : 'quick';
/** Chat messages a completed run of each kind leaves. */
const MESSAGES: Record<Kind, number> = { quick: 1, long: 2, decide: 1, fault: 0 };

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
        // 20 power calls send 40 requests (a search and a schematic each): past 30 a minute
        // they wait for the limit's reset within their deadline.
        PROVIDER_RATE_LIMITS: 'shop=6000/60,decision=600/60,power=30/60,*=300/60',
        OWNER_PROVIDER_SHARE_PERCENT: '100',
        POWER_SIM_LATENCY_MS: '500',
      },
    });
    cluster = loopback.cluster;
    // Chat messages are sealed to the owner's chat keys: register one before any run delivers.
    const { publicKey } = await generateChatKeyPair();
    const registered = await fetch(`${cluster.apiUrls[0]}/v1/chats/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${cluster.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ public_key: publicKey, label: 'chaos' }),
    });
    expect(registered.status).toBe(201);
  }, 1_500_000);

  let failed = false;
  afterEach((ctx) => {
    if (ctx.task.result?.state === 'fail') failed = true;
  });
  afterAll(async () => {
    // A failed run keeps its logs for a look (the path is printed).
    await loopback?.close({ keepLogs: failed });
    if (failed && loopback) {
      // What the cluster said (a process that died names itself) and the end of each log, so a
      // failure on CI, where the directory is gone, shows its cause.
      const logDir = path.join(loopback.dataDir, 'logs');
      const tails = readdirSync(logDir).map((name) => {
        const lines = readFileSync(path.join(logDir, name), 'utf8').trimEnd().split('\n');
        return `--- ${name} (last 40 of ${lines.length} lines)\n${lines.slice(-40).join('\n')}`;
      });
      process.stderr.write(
        `cluster:\n${log.join('\n')}\n${tails.join('\n')}\ncluster logs kept in ${logDir}\n`,
      );
    }
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

  /**
   * POSTs `body` to `route` through API `first`, retried through either API with one
   * Idempotency-Key until it answers 202; resolves to the task id.
   */
  const startTask = async (first: number, route: string, body: unknown): Promise<string> => {
    const key = randomUUID();
    let last = '';
    for (let attempt = 0; attempt < 240; attempt++) {
      const api = (first + attempt) % cluster.apis.length;
      if (!cluster.apis[api]!.running) {
        last = `api ${api}: not running`;
        await sleep(250);
        continue;
      }
      try {
        const res = await call(api, 'POST', route, body, { 'idempotency-key': key });
        if (res.status === 202) return res.body.task_id as string;
        last = `api ${api}: ${res.status} ${JSON.stringify(res.body)}`;
      } catch (err) {
        // connection refused or reset: the API is down or restarting
        last = `api ${api}: ${(err as Error).message}`;
      }
      await sleep(500);
    }
    throw new Error(`a start was never answered; last: ${last}`);
  };

  it('completes every run exactly once through a worker kill, Temporal and PostgreSQL restarts and an API kill', async () => {
    const defs: Record<string, string> = {};
    const sources = { quick: QUICK, long: LONG, decide: DECIDE, fault: FAULT, scheduled: SCHEDULED };
    for (const [name, source] of Object.entries(sources)) {
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
    const started: { id: string; kind: Kind }[] = [];
    const calls: string[] = [];
    let next = 0;
    const starter = async () => {
      while (next < RUNS) {
        const n = next++;
        const fault = chaos[n];
        if (fault) await fault();
        const kind = kindOf(n);
        const id = await startTask(n % 2, `/v1/workflows/${defs[kind]}/runs`, { inputs: {} });
        started.push({ id, kind });
        if (n % (RUNS / POWER_CALLS) === 0)
          calls.push(await startTask(n % 2, POWER, powerRequest(n / (RUNS / POWER_CALLS))));
      }
    };
    await Promise.all([starter(), starter(), starter(), starter()]);
    const taskIds = started.map((s) => s.id);
    expect(new Set(taskIds).size).toBe(RUNS);
    expect(new Set(calls).size).toBe(POWER_CALLS);

    // Every run reaches an end; the APIs answer again after their restarts.
    const finished = new Map<string, Record<string, unknown>>();
    const deadline = Date.now() + 300_000;
    const all = [...taskIds, ...calls];
    while (finished.size < all.length && Date.now() < deadline) {
      for (const id of all.filter((t) => !finished.has(t))) {
        const res = await call(0, 'GET', `/v1/tasks/${id}`).catch(() => undefined);
        if (res?.status === 200 && ['completed', 'failed', 'cancelled'].includes(res.body.status as string))
          finished.set(id, res.body);
      }
      if (finished.size < all.length) await sleep(2_000);
    }
    // Every run and call ended, and completed, except the runs whose upstream failed: those
    // failed with the upstream's code. Anything else shows its steps' errors here.
    expect(finished.size).toBe(all.length);
    const faultIds = new Set(started.filter((s) => s.kind === 'fault').map((s) => s.id));
    const unexpected = [...finished.values()]
      .filter((t) => t.status !== (faultIds.has(t.task_id as string) ? 'failed' : 'completed'))
      .map((t) => ({ task_id: t.task_id, status: t.status, steps: t.steps, error: t.error }));
    expect(unexpected).toEqual([]);
    const faultErrors = new Set([...faultIds].map((id) => JSON.stringify(finished.get(id)!.error)));
    expect([...faultErrors].map((e) => JSON.parse(e) as unknown)).toEqual([FAULT_ERROR]);
    // Each power call answered its requirement with designs (at most the 2 asked for).
    for (const id of calls) {
      const output = (finished.get(id)!.result as { output: { results: { solutions: unknown[] }[] } }).output;
      expect(output.results).toHaveLength(1);
      expect(output.results[0]!.solutions.length, id).toBeGreaterThan(0);
      expect(output.results[0]!.solutions.length, id).toBeLessThanOrEqual(2);
    }

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
      const runDefs = [defs.quick, defs.long, defs.decide, defs.fault].map((d) => `'${d}'`).join(', ');
      const ids = await workflowIds(`DefinitionId IN (${runDefs})`);
      expect(ids.sort()).toEqual([...taskIds].sort());
      const callIds = await workflowIds(`TaskKind = 'skill_call'`);
      expect(callIds.sort()).toEqual([...calls].sort());

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
      const messages = started.reduce((sum, s) => sum + MESSAGES[s.kind], 0);
      expect(rows.rows.length).toBe(messages + ticks.length);

      // Billed once: one record per power call (one credit, one requirement), and one
      // decision record per decision request of each decide run: every run decides on the same
      // search results, so each sends the same number of requests, and a retried step (after a
      // worker kill) replaces its records instead of adding any.
      const usage = await db.query<{ task_id: string; skill: string; n: string; credits: string }>(
        `SELECT task_id, skill, count(*) AS n, sum(credits) AS credits FROM usage_records
          WHERE owner_id = 'cluster' GROUP BY 1, 2`,
      );
      const byTask = (a: { task_id: string }, b: { task_id: string }) =>
        a.task_id < b.task_id ? -1 : a.task_id > b.task_id ? 1 : 0;
      const decideIds = started.filter((s) => s.kind === 'decide').map((s) => s.id);
      const perDecide = Number(usage.rows.find((r) => r.skill === 'workflow.decide')?.n);
      expect(perDecide).toBeGreaterThanOrEqual(1);
      expect(perDecide).toBeLessThanOrEqual(3);
      expect(
        usage.rows.map((r) => ({ ...r, n: Number(r.n), credits: Number(r.credits) })).sort(byTask),
      ).toEqual(
        [
          ...calls.map((id) => ({
            task_id: id,
            skill: 'electronics.search_power_designs',
            n: 1,
            credits: 1,
          })),
          ...decideIds.map((id) => ({ task_id: id, skill: 'workflow.decide', n: perDecide, credits: 0 })),
        ].sort(byTask),
      );
    } finally {
      await db.end();
      await connection.close();
    }
    // No process died by itself (the cluster would have started it again, and said so).
    expect(log.filter((line) => line.includes('exited unexpectedly'))).toEqual([]);
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
