/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * Flow control on a real Temporal server, with the domain search skill talking over HTTP to the
 * shop simulator (slowed by its latency fault so that runs overlap): 20 runs of a definition
 * with `concurrency: { limit: 2, key }` across two keys never have more than two of a key
 * running, both keys run side by side, the waiting runs are `queued` with their places, a
 * worker restart loses none of them, a cancelled queued run gives its place back; the owner's
 * cap queues runs of every definition; a wait step holds no slot.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS } from '../../activities/apps/index.js';
import { startShopSimulator, type ShopSimulator } from '../../simulators/shop/server.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import type { RawConfig } from '../../lib/config.js';

const ENDED = ['completed', 'failed', 'cancelled'];

const KEYED = `title: Keyed flow probe
concurrency: { limit: 2, key: '{{inputs.customer}}' }
start_when:
  manual:
    inputs:
      customer: { type: string, required: true }
      n: { type: integer, required: true }
steps:
  - id: search
    use_app_skill: hosting.search_domains
    input: { requests: [{ query: 'flowprobe{{inputs.n}}', tlds: [com] }] }
`;

const PLAIN = `title: Owner cap probe
start_when:
  manual:
    inputs:
      n: { type: integer, required: true }
steps:
  - id: search
    use_app_skill: hosting.search_domains
    input: { requests: [{ query: 'capprobe{{inputs.n}}', tlds: [com] }] }
`;

const WITH_WAIT = `title: Wait probe
concurrency: { limit: 1 }
start_when:
  manual:
    inputs:
      n: { type: integer, required: true }
steps:
  - id: before
    use_app_skill: hosting.search_domains
    input: { requests: [{ query: 'waitprobe{{inputs.n}}', tlds: [com] }] }
  - id: pause
    wait: { duration: 4s }
  - id: after
    use_app_skill: hosting.search_domains
    input: { requests: [{ query: 'waitprobe{{inputs.n}}', tlds: [net] }] }
`;

/** Every byte field of a history (payload data and metadata), as text. */
function bytesOf(value: unknown, out: string[] = []): string[] {
  if (value instanceof Uint8Array) out.push(Buffer.from(value).toString('latin1'));
  else if (value && typeof value === 'object') for (const v of Object.values(value)) bytesOf(v, out);
  return out;
}

/** The most intervals that overlap at one instant. */
function maxOverlap(intervals: Array<[number, number]>): number {
  const edges = intervals.flatMap(([a, b]) => [
    [a, 1],
    [b, -1],
  ]);
  // An interval that ends where another starts does not overlap it.
  edges.sort((x, y) => x[0]! - y[0]! || x[1]! - y[1]!);
  let now = 0;
  let most = 0;
  for (const [, d] of edges) most = Math.max(most, (now += d!));
  return most;
}

/**
 * When each of a run's activities was scheduled and completed, by the server's clock (its
 * history), in order: a step's own times are workflow time, which a worker restart may leave
 * behind.
 */
async function activitySpans(h: EngineHarness, taskId: string): Promise<Array<[number, number]>> {
  const events = (await h.env.client.workflow.getHandle(taskId).fetchHistory()).events ?? [];
  const ms = (e: (typeof events)[number]) =>
    Number(e.eventTime!.seconds) * 1000 + Math.floor((e.eventTime!.nanos ?? 0) / 1e6);
  const scheduled = events.filter((e) => e.activityTaskScheduledEventAttributes).map(ms);
  const completed = events.filter((e) => e.activityTaskCompletedEventAttributes).map(ms);
  return scheduled.map((at, i) => [at, completed[i]!]);
}

/**
 * A shop simulator and an engine (API and worker, loopback) for the enclosing describe block,
 * with `config` on top of the shop's address and a rate limit the polling never reaches.
 */
function withStack(config: Partial<RawConfig>): { shop: ShopSimulator; h: EngineHarness } {
  const stack = {} as { shop: ShopSimulator; h: EngineHarness };
  beforeAll(async () => {
    stack.shop = await startShopSimulator({ host: '127.0.0.1' });
    stack.h = await startEngine({
      apps: APPS,
      config: { SHOP_URL: stack.shop.url, RATE_LIMIT_STANDARD_PER_MINUTE: 100_000, ...config },
    });
  });
  afterAll(async () => {
    await stack.h?.close();
    await stack.shop?.close();
  });
  return stack;
}

describe('flow control', () => {
  const stack = withStack({ OWNER_MAX_RUNNING_RUNS: 40 });
  let shop: ShopSimulator;
  let h: EngineHarness;
  beforeAll(() => {
    ({ shop, h } = stack);
  });

  async function define(source: string): Promise<string> {
    const created = await h.request('POST', '/v1/workflows', source, 'application/yaml');
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    return created.json.id as string;
  }

  async function start(id: string, inputs: Record<string, unknown>): Promise<string> {
    const started = await h.request('POST', `/v1/workflows/${id}/runs`, { inputs });
    expect(started.status, JSON.stringify(started.json)).toBe(202);
    return started.json.task_id as string;
  }

  const view = async (taskId: string) => (await h.request('GET', `/v1/tasks/${taskId}`)).json;

  it('runs at most two runs of a key at once, both keys side by side; the rest wait queued with their places and survive a worker restart', async () => {
    const id = await define(KEYED);
    shop.setFaults([{ type: 'latency', ms: 1_500, match: 'flowprobe' }]);
    const runs: Array<{ task: string; customer: string }> = [];
    for (let n = 0; n < 20; n += 1) {
      const customer = n % 2 === 0 ? 'acme' : 'globex';
      runs.push({ task: await start(id, { customer, n }), customer });
    }
    // Every key has two runs running and eight queued, each with its own place.
    const queuedOf = async (customer: string) => {
      const views = await Promise.all(runs.filter((r) => r.customer === customer).map((r) => view(r.task)));
      return views.filter((v) => v.status === 'queued');
    };
    let queued: any[] = [];
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      queued = await queuedOf('acme');
      if (queued.length === 8 && queued.every((v) => v.queue?.position != null)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(queued).toHaveLength(8);
    expect(queued.map((v) => v.queue.position).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(queued.every((v) => v.queue.reason === 'concurrency')).toBe(true);
    expect(queued[0].steps).toEqual([
      {
        id: 'search',
        status: 'pending',
        started_at: null,
        finished_at: null,
        output_summary: null,
        error: null,
      },
    ]);
    // A queued run is listed as queued too (its memo says so; no worker is asked).
    const listed = await h.request('GET', `/v1/workflows/${id}/runs`);
    const listedQueued = listed.json.runs
      .filter((r: any) => r.status === 'queued')
      .map((r: any) => r.task_id);
    expect(listedQueued).toEqual(expect.arrayContaining([queued[0].task_id]));

    // A worker restart while runs wait: every run still completes.
    await h.worker!.shutdown();
    await h.startWorker();
    const done = await Promise.all(
      runs.map((r) => h.waitForTask(r.task, (t) => ENDED.includes(t.status), 120_000)),
    );
    expect(done.map((t) => t.status)).toEqual(Array(20).fill('completed'));
    expect(done.every((t) => t.queue === undefined)).toBe(true);
    const all = await Promise.all(runs.map(async (r) => (await activitySpans(h, r.task))[0]!));
    const spans = (customer: string) => all.filter((_, i) => runs[i]!.customer === customer);
    // The owner's gate keeps the keys only inside encrypted payloads.
    const gate = await h.env.client.workflow.getHandle('gate_owner_a').fetchHistory();
    const raw = bytesOf(gate).join('\n');
    expect(raw).toContain('binary/encrypted');
    for (const key of ['acme', 'globex', 'flowprobe']) expect(raw).not.toContain(key);
    expect(maxOverlap(spans('acme'))).toBe(2);
    expect(maxOverlap(spans('globex'))).toBe(2);
    expect(maxOverlap(all)).toBe(4);
  }, 180_000);

  it('a cancelled queued run gives its place back; the next one moves up', async () => {
    const id = await define(KEYED.replace('limit: 2', 'limit: 1'));
    shop.setFaults([{ type: 'latency', ms: 2_000, match: 'flowprobe' }]);
    const tasks: string[] = [];
    for (let n = 0; n < 3; n += 1) tasks.push(await start(id, { customer: 'initech', n }));
    const places = async () =>
      (await Promise.all(tasks.map(view))).map((v) =>
        v.status === 'queued' ? (v.queue?.position ?? 'waiting') : v.status,
      );
    const deadline = Date.now() + 15_000;
    let seen: unknown[] = [];
    while (Date.now() < deadline) {
      seen = await places();
      if (seen.filter((p) => typeof p === 'number').length === 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen.filter((p) => typeof p === 'number').sort()).toEqual([1, 2]);
    const first = tasks[seen.indexOf(1)]!;
    const second = tasks[seen.indexOf(2)]!;
    const cancelled = await h.request('POST', `/v1/tasks/${first}/cancel`);
    expect(cancelled.status).toBe(202);
    const ended = await h.waitForTask(first, (t) => t.status === 'cancelled');
    expect(ended.queue).toBeUndefined();
    expect(ended.error).toEqual({ code: 'CANCELLED', message: 'The task was cancelled.', details: {} });
    const moved = await h.waitForTask(second, (t) => t.status !== 'queued' || t.queue.position === 1);
    expect(moved.status === 'running' || moved.queue.position === 1).toBe(true);
    const finals = await Promise.all(
      tasks.map((t) => h.waitForTask(t, (v) => ENDED.includes(v.status), 60_000)),
    );
    expect(finals.map((t) => t.status).sort()).toEqual(['cancelled', 'completed', 'completed']);
  }, 120_000);

  it('a wait step holds no slot: the next run of a limit-1 definition runs while the first one waits', async () => {
    const id = await define(WITH_WAIT);
    shop.setFaults([]);
    const a = await start(id, { n: 1 });
    await h.waitForTask(a, (t) => t.steps[1].status === 'running', 30_000);
    const b = await start(id, { n: 2 });
    const [ta, tb] = await Promise.all(
      [a, b].map((t) => h.waitForTask(t, (v) => ENDED.includes(v.status), 60_000)),
    );
    expect([ta.status, tb.status]).toEqual(['completed', 'completed']);
    // b's first step ran inside a's wait (between a's two searches); no two searches overlap.
    const [aBefore, aAfter] = await activitySpans(h, a);
    const [bBefore, bAfter] = await activitySpans(h, b);
    expect(bBefore![0]).toBeGreaterThan(aBefore![1]);
    expect(bBefore![1]).toBeLessThan(aAfter![0]);
    expect(maxOverlap([aBefore!, aAfter!, bBefore!, bAfter!])).toBe(1);
  }, 120_000);
});

describe("the owner's cap", () => {
  const stack = withStack({ OWNER_RUN_CONCURRENCY: 3 });
  let shop: ShopSimulator;
  let h: EngineHarness;
  beforeAll(() => {
    ({ shop, h } = stack);
  });

  it('queues runs of every definition past OWNER_RUN_CONCURRENCY; another owner is not held up', async () => {
    const created = await h.request('POST', '/v1/workflows', PLAIN, 'application/yaml');
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    shop.setFaults([{ type: 'latency', ms: 1_500, match: 'capprobe' }]);
    const tasks: string[] = [];
    for (let n = 0; n < 6; n += 1) {
      const res = await h.request('POST', `/v1/workflows/${id}/runs`, { inputs: { n } });
      expect(res.status).toBe(202);
      tasks.push(res.json.task_id);
    }
    const queued = await (async () => {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const views = await Promise.all(
          tasks.map(async (t) => (await h.request('GET', `/v1/tasks/${t}`)).json),
        );
        const q = views.filter((v) => v.status === 'queued' && v.queue?.position != null);
        if (q.length === 3 || Date.now() > deadline) return q;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    expect(queued.map((v) => v.queue).sort((x, y) => x.position - y.position)).toEqual([
      { position: 1, reason: 'owner_cap' },
      { position: 2, reason: 'owner_cap' },
      { position: 3, reason: 'owner_cap' },
    ]);
    // Another owner's run starts at once.
    const other = await h.request('POST', '/v1/workflows', PLAIN, 'application/yaml', h.otherToken);
    const otherRun = await h.request(
      'POST',
      `/v1/workflows/${other.json.id}/runs`,
      { inputs: { n: 99 } },
      'application/json',
      h.otherToken,
    );
    const otherView = async () =>
      (await h.request('GET', `/v1/tasks/${otherRun.json.task_id}`, undefined, undefined, h.otherToken)).json;
    const deadline = Date.now() + 10_000;
    let ov = await otherView();
    while (ov.steps[0].status === 'pending' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      ov = await otherView();
    }
    expect(ov.status).toBe('running');
    const done = await Promise.all(
      tasks.map((t) => h.waitForTask(t, (v) => ENDED.includes(v.status), 60_000)),
    );
    expect(done.map((t) => t.status)).toEqual(Array(6).fill('completed'));
    const spans = await Promise.all(tasks.map(async (t) => (await activitySpans(h, t))[0]!));
    expect(maxOverlap(spans)).toBe(3);
  }, 120_000);
});
