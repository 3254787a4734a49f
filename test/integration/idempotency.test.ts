/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * The `Idempotency-Key` header over real HTTP, on the API with a real Temporal server and a
 * worker: a repeat replays the first answer (same status and body, `Idempotent-Replayed: true`)
 * and starts nothing; another body is 409 IDEMPOTENCY_KEY_REUSED; a repeat while the first is in
 * flight is 409 IDEMPOTENCY_KEY_IN_FLIGHT; an error answer frees the key; a malformed key is
 * 400; owners have their own keys; a key ends after 24 hours; 20 concurrent identical requests
 * start exactly one run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../lib/errors/catalogue.js';
import { createClient, SkillflowApiError } from '../../sdk/index.js';
import { createKey } from '../../lib/keys.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { shoutWordDefinition } from '../helpers/definitions.js';
import { runCli } from '../helpers/stack.js';
import { usageRows } from '../helpers/usage.js';
import { postgresAvailable, startTestPostgres, type TestPostgres } from '../helpers/postgres.js';

const DEFINITION = shoutWordDefinition('Idempotent runs');

interface Answer {
  status: number;
  headers: Headers;
  body: string;
  json: any;
}

/** The answer to a repeat while the first request with its key is in flight. */
const IN_FLIGHT = {
  error: {
    code: 'IDEMPOTENCY_KEY_IN_FLIGHT',
    message: ERROR_CATALOGUE.IDEMPOTENCY_KEY_IN_FLIGHT.message,
    details: { retry_after_seconds: 1 },
  },
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Requests to the API at `base` over HTTP, as the owner of `defaultToken` unless told. */
function httpClient(base: string, defaultToken: string) {
  return {
    async post(path: string, body: unknown, key: string | undefined, token = defaultToken): Promise<Answer> {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...(key !== undefined ? { 'idempotency-key': key } : {}),
        },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text, json: JSON.parse(text) };
    },

    async newWorkflow(token = defaultToken): Promise<string> {
      const res = await fetch(`${base}/v1/workflows`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/yaml' },
        body: DEFINITION,
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: string }).id;
    },

    /** The workflow's runs in visibility, once `expected` show and a further second adds none. */
    async runIds(id: string, expected: number, token = defaultToken): Promise<string[]> {
      const list = async () => {
        const res = await fetch(`${base}/v1/workflows/${id}/runs`, {
          headers: { authorization: `Bearer ${token}` },
        });
        return ((await res.json()) as { runs: { task_id: string }[] }).runs.map((r) => r.task_id);
      };
      for (let i = 0; i < 100 && (await list()).length < expected; i++) await sleep(100);
      await sleep(1000);
      return list();
    },
  };
}
type HttpClient = ReturnType<typeof httpClient>;

/** 20 concurrent identical run requests with one key: one start, the rest replays or in flight. */
async function expectOneRunOf20(c: HttpClient, key: string): Promise<void> {
  const id = await c.newWorkflow();
  const answers = await Promise.all(
    Array.from({ length: 20 }, () => c.post(`/v1/workflows/${id}/runs`, { inputs: { word: 'race' } }, key)),
  );
  const fresh = answers.filter((a) => a.status === 202 && !a.headers.get('idempotent-replayed'));
  expect(fresh).toHaveLength(1);
  const taskId = fresh[0]!.json.task_id as string;
  for (const a of answers) {
    if (a.status === 202) expect(a.json.task_id).toBe(taskId);
    else expect([a.status, a.json]).toEqual([409, IN_FLIGHT]);
  }
  expect(await c.runIds(id, 1)).toEqual([taskId]);
}

describe('Idempotency-Key', () => {
  let h: EngineHarness;
  let base: string;
  let c: HttpClient;
  let thirdToken: string;
  let keyNo = 0;
  const newKey = () => `key ${Date.now()}-${++keyNo}`;

  beforeAll(async () => {
    h = await startEngine();
    ({ token: thirdToken } = await createKey(h.api.deps.store, {
      name: 'third',
      scopes: ['*'],
      ownerId: 'owner_c',
    }));
    base = await h.api.app.listen({ host: '127.0.0.1', port: 0 });
    c = httpClient(base, h.token);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const runs = (id: string) => `/v1/workflows/${id}/runs`;
  const SHOUT = '/v1/apps/echo/skills/shout';

  it('replays a run start: same status, body and task_id, with Idempotent-Replayed, and starts one run', async () => {
    const id = await c.newWorkflow();
    const key = newKey();
    const first = await c.post(runs(id), { inputs: { word: 'cedar' } }, key);
    expect(first.status, first.body).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(first.json).toEqual({
      task_id: expect.any(String),
      links: { task: `/v1/tasks/${first.json.task_id}` },
    });
    // Key order and spacing do not make another body.
    const again = await fetch(`${base}${runs(id)}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${h.token}`,
        'content-type': 'application/json',
        'idempotency-key': key,
      },
      body: '{ "inputs" : { "word" : "cedar" } }',
    });
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(first.body);
    expect(await c.runIds(id, 1)).toEqual([first.json.task_id]);
  });

  /**
   * As if the API died (or its store write failed) after doing the work, before storing the
   * answer: the owner's newest claim is made unanswered, as if claimed with a lease of `leaseMs`
   * that ended a second ago.
   */
  const loseNewestAnswer = async (leaseMs: number) => {
    const db = h.api.deps.store.db;
    const row = await db
      .selectFrom('idempotency_keys')
      .select(['key_hash'])
      .where('owner_id', '=', 'owner_a')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    const ago = Date.now() - leaseMs - 1000;
    await db
      .updateTable('idempotency_keys')
      .set({ answer_sealed: null, created_at: new Date(ago), expires_at: new Date(ago + leaseMs) })
      .where('key_hash', '=', row.key_hash)
      .execute();
  };

  /** The acceptance (usage) records of a call or task id. */
  const usageRowsOf = (taskId: string) => usageRows(h.api.deps.store, { taskId });

  it('finds a run start whose answer was lost again after its 30-second lease: the same task, one run', async () => {
    const id = await c.newWorkflow();
    const key = newKey();
    const body = { inputs: { word: 'cedar' } };
    const first = await c.post(runs(id), body, key);
    expect(first.status, first.body).toBe(202);
    await loseNewestAnswer(30_000);
    const retry = await c.post(runs(id), body, key);
    expect(retry.status, retry.body).toBe(202);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.json).toEqual(first.json);
    expect(await c.runIds(id, 1)).toEqual([first.json.task_id]);
    // The retry's answer is stored: the next repeat is a replay.
    const replay = await c.post(runs(id), body, key);
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([202, 'true']);
  });

  /**
   * Makes the API's next Temporal start reach the server, then fail as a lost answer would (the
   * connection dropped after the server took the start).
   */
  const loseNextStartAnswer = () => {
    const workflow = h.api.deps.temporal.client.workflow;
    const start = workflow.start.bind(workflow);
    const started: string[] = [];
    workflow.start = (async (...args: Parameters<typeof start>) => {
      workflow.start = start;
      const handle = await start(...args);
      started.push(handle.workflowId);
      throw new Error('connection lost after the start');
    }) as typeof start;
    return started;
  };
  const INTERNAL_ERROR = {
    error: { code: 'INTERNAL', message: ERROR_CATALOGUE.INTERNAL.message, details: {} },
  };

  it('keeps the claim of a run start that reached Temporal but answered 500: a retry after the lease finds that run', async () => {
    const id = await c.newWorkflow();
    const key = newKey();
    const body = { inputs: { word: 'cedar' } };
    const started = loseNextStartAnswer();
    const first = await c.post(runs(id), body, key);
    expect([first.status, first.json]).toEqual([500, INTERNAL_ERROR]);
    // Within the lease the key stays claimed: the first attempt's run may exist.
    const early = await c.post(runs(id), body, key);
    expect([early.status, early.json, early.headers.get('retry-after')]).toEqual([
      409,
      {
        error: {
          code: 'IDEMPOTENCY_KEY_IN_FLIGHT',
          message: ERROR_CATALOGUE.IDEMPOTENCY_KEY_IN_FLIGHT.message,
          details: { retry_after_seconds: 1 },
        },
      },
      '1',
    ]);
    await loseNewestAnswer(30_000);
    const retry = await c.post(runs(id), body, key);
    expect(retry.status, retry.body).toBe(202);
    expect(started).toEqual([retry.json.task_id]);
    expect(await c.runIds(id, 1)).toEqual([retry.json.task_id]);
  });

  it('keeps the claim of a long-running skill call that reached Temporal but answered 500: a retry finds that task, billed once', async () => {
    const key = newKey();
    const body = { requests: [{ text: 'lost start' }] };
    const started = loseNextStartAnswer();
    const first = await c.post('/v1/apps/echo/skills/slow_echo', body, key);
    expect([first.status, first.json]).toEqual([500, INTERNAL_ERROR]);
    const early = await c.post('/v1/apps/echo/skills/slow_echo', body, key);
    expect([early.status, early.json.error.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_FLIGHT']);
    await loseNewestAnswer(30_000);
    const retry = await c.post('/v1/apps/echo/skills/slow_echo', body, key);
    expect(retry.status, retry.body).toBe(202);
    // The retry's task is the one the lost start began.
    expect(started).toEqual([retry.json.task_id]);
    await h.waitForTask(retry.json.task_id, (t) => t.status === 'completed');
    expect(await usageRowsOf(retry.json.task_id)).toEqual([
      { task_id: retry.json.task_id, credits: 2, request_items: 1 },
    ]);
  });

  it('finds a long-running skill call whose answer was lost after its lease: the same task and embed, billed once', async () => {
    const key = newKey();
    const body = { requests: [{ text: 'lost' }] };
    const first = await c.post('/v1/apps/echo/skills/slow_echo', body, key);
    expect(first.status, first.body).toBe(202);
    await loseNewestAnswer(30_000);
    const retry = await c.post('/v1/apps/echo/skills/slow_echo', body, key);
    expect(retry.status, retry.body).toBe(202);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.json).toEqual(first.json);
    expect(await usageRowsOf(first.json.task_id)).toEqual([
      { task_id: first.json.task_id, credits: 2, request_items: 1 },
    ]);
    const embeds = await h.api.deps.store.db
      .selectFrom('embeds')
      .select('id')
      .where('task_id', '=', first.json.task_id)
      .execute();
    expect(embeds).toEqual([{ id: first.json.embed_id }]);
    // One task: its workflow id is the task id, and a second start would have been refused.
    const described = await h.env.client.workflow.getHandle(first.json.task_id).describe();
    expect(described.workflowId).toBe(first.json.task_id);
  });

  it('answers a quick call whose answer was lost after its lease again, under the same call id, billed once', async () => {
    const key = newKey();
    const body = { requests: [{ text: 'lost' }] };
    const first = await c.post(SHOUT, body, key);
    expect(first.status, first.body).toBe(200);
    const shout = h.api.deps.registry.available('echo', 'shout')!;
    await loseNewestAnswer(shout.policy.activity.startToCloseTimeout + 30_000);
    const retry = await c.post(SHOUT, body, key);
    expect(retry.status, retry.body).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.json).toEqual(first.json);
    // An inline call's record is written within 50 ms of its answer.
    await sleep(500);
    expect(await usageRowsOf(first.json.call_id)).toEqual([
      { task_id: first.json.call_id, credits: 1, request_items: 1 },
    ]);
  });

  it('answers the same key with another body 409 IDEMPOTENCY_KEY_REUSED', async () => {
    const id = await c.newWorkflow();
    const key = newKey();
    expect((await c.post(runs(id), { inputs: { word: 'cedar' } }, key)).status).toBe(202);
    const other = await c.post(runs(id), { inputs: { word: 'birch' } }, key);
    expect(other.status).toBe(409);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(other.json).toEqual({
      error: {
        code: 'IDEMPOTENCY_KEY_REUSED',
        message: ERROR_CATALOGUE.IDEMPOTENCY_KEY_REUSED.message,
        details: {},
      },
    });
    // The key is per route: the same key on another workflow is another key.
    const elsewhere = await c.post(runs(await c.newWorkflow()), { inputs: { word: 'birch' } }, key);
    expect(elsewhere.status).toBe(202);
    expect(elsewhere.headers.get('idempotent-replayed')).toBeNull();
    expect(await c.runIds(id, 1)).toHaveLength(1);
  });

  it('answers a repeat while the first is in flight 409 IDEMPOTENCY_KEY_IN_FLIGHT with Retry-After: 1', async () => {
    const key = newKey();
    const body = { requests: [{ text: 'slow', wait_ms: 2000 }] };
    const first = c.post(SHOUT, body, key);
    await sleep(500);
    const during = await c.post(SHOUT, body, key);
    expect(during.status).toBe(409);
    expect(during.headers.get('retry-after')).toBe('1');
    expect(during.json).toEqual(IN_FLIGHT);
    const answered = await first;
    expect(answered.status, answered.body).toBe(200);
    expect(answered.json).toMatchObject({ results: [{ text: 'SLOW' }], call_id: expect.any(String) });
    const after = await c.post(SHOUT, body, key);
    expect(after.status).toBe(200);
    expect(after.headers.get('idempotent-replayed')).toBe('true');
    expect(after.body).toBe(answered.body);
  });

  it('replays a long-running skill call: the same task_id and embed_id', async () => {
    const key = newKey();
    const body = { requests: [{ text: 'later' }] };
    const first = await c.post('/v1/apps/echo/skills/slow_echo', body, key);
    expect(first.status, first.body).toBe(202);
    expect(first.json).toEqual({ task_id: expect.any(String), embed_id: expect.any(String) });
    const again = await c.post('/v1/apps/echo/skills/slow_echo', body, key);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(first.json);
  });

  it('does not remember an error answer: the key is free again', async () => {
    const key = newKey();
    const failing = { requests: [{ text: 'x', fail: 'UPSTREAM_UNAVAILABLE' }] };
    const unavailable = {
      error: {
        code: 'UPSTREAM_UNAVAILABLE',
        message: ERROR_CATALOGUE.UPSTREAM_UNAVAILABLE.message,
        details: {},
      },
    };
    const first = await c.post(SHOUT, failing, key);
    expect([first.status, first.json]).toEqual([503, unavailable]);
    const second = await c.post(SHOUT, failing, key);
    expect([second.status, second.json]).toEqual([503, unavailable]);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    const ok = await c.post(SHOUT, { requests: [{ text: 'x' }] }, key);
    expect(ok.status, ok.body).toBe(200);
    expect(ok.headers.get('idempotent-replayed')).toBeNull();

    // A run refused by its handler (an undeclared input) frees the key for the corrected body.
    const id = await c.newWorkflow();
    const runKey = newKey();
    const refused = await c.post(runs(id), { inputs: { nope: 1 } }, runKey);
    expect([refused.status, refused.json]).toEqual([
      400,
      {
        error: {
          code: 'INVALID_PARAMETER',
          message: 'Invalid value at inputs: holds an input the definition does not declare',
          details: {
            issues: [
              { path: 'inputs', message: 'holds an input the definition does not declare', input: 'nope' },
              { path: 'inputs.word', message: 'is required' },
            ],
          },
        },
      },
    ]);
    const started = await c.post(runs(id), { inputs: { word: 'cedar' } }, runKey);
    expect(started.status, started.body).toBe(202);
    expect(started.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses a malformed key with 400 INVALID_PARAMETER, without quoting it', async () => {
    const id = await c.newWorkflow();
    const message = 'must be 1-255 printable ASCII characters';
    for (const bad of ['x'.repeat(256), 'caf\u00e9', 'a\tb', '']) {
      const res = await c.post(runs(id), { inputs: { word: 'cedar' } }, bad);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({
        error: {
          code: 'INVALID_PARAMETER',
          message: `Invalid headers at idempotency-key: ${message}`,
          details: { issues: [{ path: 'idempotency-key', message, location: 'headers' }] },
        },
      });
    }
    const skill = await c.post(SHOUT, { requests: [{ text: 'x' }] }, 'x'.repeat(256));
    expect([skill.status, skill.json]).toEqual([
      400,
      {
        error: {
          code: 'INVALID_PARAMETER',
          message: `Invalid headers at idempotency-key: ${message}`,
          details: { issues: [{ path: 'idempotency-key', message, location: 'headers' }] },
        },
      },
    ]);
    expect(await c.runIds(id, 0)).toEqual([]);
    // The longest and widest key is fine.
    const widest = ' ~'.repeat(127) + 'a';
    expect((await c.post(runs(id), { inputs: { word: 'cedar' } }, widest)).status).toBe(202);
  });

  it("gives another owner the same key as its own: its own run, not the first owner's answer", async () => {
    const key = newKey();
    const mine = await c.post(SHOUT, { requests: [{ text: 'mine' }] }, key);
    const theirs = await c.post(SHOUT, { requests: [{ text: 'mine' }] }, key, h.otherToken);
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.json.call_id).not.toBe(mine.json.call_id);
  });

  it("replays only to a key of the owner that holds every scope of the first request's key", async () => {
    const narrow = await createKey(h.api.deps.store, {
      name: 'narrow',
      scopes: ['workflows'],
      ownerId: 'owner_a',
    });
    const wide = await createKey(h.api.deps.store, { name: 'wide', scopes: ['*'], ownerId: 'owner_a' });
    const key = newKey();
    const body = { requests: [{ text: 'scoped' }] };
    const first = await c.post(SHOUT, body, key);
    expect(first.status, first.body).toBe(200);
    const refused = await c.post(SHOUT, body, key, narrow.token);
    expect([refused.status, refused.headers.get('idempotent-replayed'), refused.json]).toEqual([
      403,
      null,
      {
        error: {
          code: 'FORBIDDEN',
          message: 'The API key lacks a scope of the key whose request this Idempotency-Key answered.',
          details: { required_scope: ['*'] },
        },
      },
    ]);
    const replayed = await c.post(SHOUT, body, key, wide.token);
    expect([replayed.status, replayed.headers.get('idempotent-replayed'), replayed.body]).toEqual([
      200,
      'true',
      first.body,
    ]);
  });

  it('forgets a key 24 hours after its first answer', async () => {
    const id = await c.newWorkflow(thirdToken);
    const key = newKey();
    const body = { inputs: { word: 'cedar' } };
    const first = await c.post(runs(id), body, key, thirdToken);
    expect((await c.post(runs(id), body, key, thirdToken)).headers.get('idempotent-replayed')).toBe('true');
    // The row as it is 24 hours and a second later.
    const day = 24 * 3600_000 + 1000;
    const rows = await h.api.deps.store.db
      .selectFrom('idempotency_keys')
      .select(['key_hash', 'created_at', 'expires_at'])
      .where('owner_id', '=', 'owner_c')
      .execute();
    expect(rows).toHaveLength(1);
    for (const row of rows) {
      expect(new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()).toBe(24 * 3600_000);
      await h.api.deps.store.db
        .updateTable('idempotency_keys')
        .set({
          created_at: new Date(new Date(row.created_at).getTime() - day),
          expires_at: new Date(new Date(row.expires_at).getTime() - day),
        })
        .where('key_hash', '=', row.key_hash)
        .execute();
    }
    const later = await c.post(runs(id), body, key, thirdToken);
    expect(later.status).toBe(202);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.json.task_id).not.toBe(first.json.task_id);
    expect((await c.runIds(id, 2, thirdToken)).sort()).toEqual(
      [first.json.task_id, later.json.task_id].sort(),
    );
  });

  it('starts exactly one run for 20 concurrent identical requests', async () => {
    await expectOneRunOf20(c, newKey());
  });

  it('JS SDK: workflows.run and skill calls send idempotencyKey and get the first answer back', async () => {
    const client = createClient({ baseUrl: base, token: h.token });
    const id = await c.newWorkflow();
    const key = newKey();
    const first = await client.workflows.run(id, { word: 'cedar' }, { idempotencyKey: key });
    expect(await client.workflows.run(id, { word: 'cedar' }, { idempotencyKey: key })).toEqual(first);
    const other = await client.workflows
      .run(id, { word: 'birch' }, { idempotencyKey: key })
      .catch((e: unknown) => e);
    expect(other).toBeInstanceOf(SkillflowApiError);
    expect(other).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect((await client.workflows.run(id, { word: 'cedar' })).task_id).not.toBe(first.task_id);

    const call = await client.app('echo').shout!({ requests: [{ text: 'sdk' }] }, { idempotencyKey: key });
    expect(await client.app('echo').shout!({ requests: [{ text: 'sdk' }] }, { idempotencyKey: key })).toEqual(
      call,
    );
    const untyped = await client.skills.call(
      'echo',
      'shout',
      { requests: [{ text: 'sdk' }] },
      { idempotencyKey: key },
    );
    expect(untyped).toEqual(call);
  });

  it('CLI: --idempotency-key on workflows run and apps <app> <skill>', async () => {
    const env = { SKILLFLOW_URL: base, SKILLFLOW_API_KEY: h.token };
    const id = await c.newWorkflow();
    const key = newKey();
    const start = () =>
      runCli(['workflows', 'run', id, '--input', '{"word":"cli"}', '--idempotency-key', key, '--json'], env);
    const first = await start();
    expect(first.code, first.stderr).toBe(0);
    const again = await start();
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(JSON.parse(first.stdout));
    expect(await c.runIds(id, 1)).toEqual([JSON.parse(first.stdout).task_id]);

    const call = (text: string) =>
      runCli(
        [
          'apps',
          'echo',
          'shout',
          '--input',
          JSON.stringify({ requests: [{ text }] }),
          '--idempotency-key',
          key,
          '--json',
        ],
        env,
      );
    const shout = await call('cli');
    expect(shout.code, shout.stderr).toBe(0);
    expect((await call('cli')).stdout).toBe(shout.stdout);
    const reused = await call('other');
    expect(reused.code).not.toBe(0);
    expect(reused.stderr).toContain('IDEMPOTENCY_KEY_REUSED');
  });

  it('documents the header, the 409 and Idempotent-Replayed on both operations', async () => {
    const doc = await (await fetch(`${base}/v1/openapi.json`)).json();
    for (const [path, status] of [
      ['/v1/workflows/{id}/runs', '202'],
      ['/v1/apps/echo/skills/shout', '200'],
      ['/v1/apps/echo/skills/shout', '202'],
    ] as const) {
      const op = doc.paths[path].post;
      expect(op.parameters).toContainEqual(
        expect.objectContaining({ in: 'header', name: 'idempotency-key', required: false }),
      );
      expect(op.responses['409'].description).toMatch(/IDEMPOTENCY_KEY_REUSED.*IDEMPOTENCY_KEY_IN_FLIGHT/);
      expect(op.responses[status].headers['Idempotent-Replayed'].schema).toEqual({
        type: 'string',
        enum: ['true'],
      });
    }
    expect(doc.paths['/v1/workflows'].post.parameters ?? []).not.toContainEqual(
      expect.objectContaining({ name: 'idempotency-key' }),
    );
  });
});

// Skipped only outside CI on a machine without Debian PostgreSQL (as the store tests are); CI always runs it.
describe.skipIf(process.env.CI !== 'true' && !postgresAvailable())('Idempotency-Key on PostgreSQL', () => {
  let pg: TestPostgres;
  let h: EngineHarness;
  let c: HttpClient;
  beforeAll(async () => {
    pg = await startTestPostgres();
    h = await startEngine({ databaseUrl: pg.url });
    c = httpClient(await h.api.app.listen({ host: '127.0.0.1', port: 0 }), h.token);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    pg?.stop();
  });

  it('starts exactly one run for 20 concurrent identical requests', async () => {
    await expectOneRunOf20(c, `race ${Date.now()}`);
  });
});
