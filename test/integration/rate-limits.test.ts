import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderLimits, parseProviderRules } from '../../lib/limits/provider-limits.js';
import { createKey } from '../../lib/keys.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { usageRows } from '../helpers/usage.js';

describe('per-tier rate limits and provider limits on the authenticated routes', () => {
  let h: EngineHarness;
  let freeToken: string;
  beforeAll(async () => {
    // The worker charges the same store-backed provider counters as the API does.
    h = await startEngine({
      config: {
        RATE_LIMIT_FREE_PER_MINUTE: 3,
        PROVIDER_RATE_LIMITS: 'sim=1/3',
        QUEUE_MAX_PER_KEY: 2,
      },
    });
    ({ token: freeToken } = await createKey(h.api.deps.store, {
      name: 'free',
      scopes: ['*'],
      ownerId: 'owner_free',
      tier: 'free',
    }));
  });
  afterAll(async () => {
    await h?.close();
  });

  const get = (url: string, token = freeToken) =>
    h.api.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

  it('counts every authenticated request per tier, with X-RateLimit headers; a read over the limit is 429 with Retry-After', async () => {
    const first = await get('/v1/apps/echo');
    expect(first.statusCode).toBe(200);
    expect(first.headers).toMatchObject({
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '2',
      'x-ratelimit-reset': '60',
    });
    const missing = await get('/v1/tasks/task_nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-ratelimit-remaining']).toBe('1');
    await get('/v1/apps/echo');
    const over = await get('/v1/apps/echo');
    expect(over.statusCode).toBe(429);
    expect(over.headers).toMatchObject({
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '0',
      'retry-after': over.headers['x-ratelimit-reset'],
    });
    const seconds = Number(over.headers['retry-after']);
    expect(seconds).toBeGreaterThanOrEqual(58);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(over.json().error).toEqual({
      code: 'RATE_LIMITED',
      message: `The free tier allows 3 requests per minute; retry in ${seconds} s.`,
      details: { tier: 'free', limit: 3, window_seconds: 60, retry_after_seconds: seconds },
    });
    // Other owners and tiers keep their own counters; 401 answers carry no rate-limit headers.
    const standard = await get('/v1/apps/echo', h.token);
    expect(standard.headers).toMatchObject({ 'x-ratelimit-limit': '120', 'x-ratelimit-remaining': '119' });
    const anon = await h.api.app.inject({ method: 'GET', url: '/v1/apps/echo' });
    expect(anon.statusCode).toBe(401);
    expect(anon.headers['x-ratelimit-remaining']).toBeUndefined();
  });

  it('a skill call counts once against the tier, whether it runs or ends early (bad input, unknown skill)', async () => {
    const { token } = await createKey(h.api.deps.store, {
      name: 'hdr',
      scopes: ['*'],
      ownerId: 'owner_hdr',
      tier: 'standard',
    });
    const post = (url: string, payload: unknown) =>
      h.api.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
    const ok = await post('/v1/apps/echo/skills/shout', { requests: [{ text: 'hi' }] });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers).toMatchObject({ 'x-ratelimit-limit': '120', 'x-ratelimit-remaining': '119' });
    const bad = await post('/v1/apps/echo/skills/shout', { requests: [] });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers).toMatchObject({ 'x-ratelimit-limit': '120', 'x-ratelimit-remaining': '118' });
    const unknown = await post('/v1/apps/echo/skills/nope', { requests: [{ text: 'hi' }] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['x-ratelimit-remaining']).toBe('117');
    const again = await post('/v1/apps/echo/skills/shout', { requests: [{ text: 'hi' }] });
    expect(again.headers['x-ratelimit-remaining']).toBe('116');
  });

  it('a skill call over the tier limit is queued to the reset (202 at once), up to the per-key queue depth, then 429', async () => {
    const post = () =>
      h.api.app.inject({
        method: 'POST',
        url: '/v1/apps/echo/skills/shout',
        headers: { authorization: `Bearer ${freeToken}`, 'content-type': 'application/json' },
        payload: { requests: [{ text: 'later' }] },
      });
    const queued = [await post(), await post()];
    for (const res of queued) {
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ task_id: expect.stringMatching(/^task_/), status: 'queued' });
      expect(res.headers).toMatchObject({ 'x-ratelimit-remaining': '0' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(50);
      expect(res.headers['retry-after']).toBe(res.headers['x-ratelimit-reset']);
    }
    // The workflow exists, waiting for its start delay; the task says queued.
    const taskId = queued[0]!.json().task_id as string;
    // Reading is over the tier limit too, so polling waits for the reset like the call does.
    expect((await get(`/v1/tasks/${taskId}`)).statusCode).toBe(429);
    const desc = await h.env.client.workflow.getHandle(taskId).describe();
    expect(desc.status.name).toBe('RUNNING');
    const history = await h.env.client.workflow.getHandle(taskId).fetchHistory();
    const started = history.events![0]!.workflowExecutionStartedEventAttributes!;
    expect(Number(started.firstWorkflowTaskBackoff!.seconds)).toBeGreaterThanOrEqual(50);
    // The third one would exceed QUEUE_MAX_PER_KEY=2.
    const full = await post();
    expect(full.statusCode).toBe(429);
    const wait = Number(full.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(50);
    expect(full.json()).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: `This API key already has 2 calls queued; retry in ${wait} s.`,
        details: { queue_depth: 2, max_queue_depth: 2, retry_after_seconds: wait },
      },
    });
    // Both queued calls have usage records, marked queued, on the free key's owner.
    const rows = await h.api.deps.store.db
      .selectFrom('usage_records')
      .select(['task_id', 'queued', 'owner_id'])
      .where('owner_id', '=', 'owner_free')
      .execute();
    expect(
      rows
        .filter((r) => r.queued)
        .map((r) => r.task_id)
        .sort(),
    ).toEqual(queued.map((r) => r.json().task_id as string).sort());
  });

  it('a provider limit queues the call at once (202, never a 200 that hangs) and Temporal runs it at the reset', async () => {
    const post = () => h.request('POST', '/v1/apps/metered/skills/ping', { requests: [{ text: 'a' }] });
    const first = await post();
    expect(first.status).toBe(200);
    expect(first.json.results).toEqual([{ text: 'A' }]);
    const started = Date.now();
    const second = await post();
    expect(Date.now() - started).toBeLessThan(1500);
    expect(second.status).toBe(202);
    expect(second.json).toEqual({ task_id: expect.stringMatching(/^task_/), status: 'queued' });
    // The queued call's provider point was given back: the counter holds the one request the
    // first call sent.
    const counters = await h.api.deps.store.db
      .selectFrom('rate_limits')
      .select(['key', 'points'])
      .where('key', 'like', 'provider:sim:%')
      .execute();
    expect(counters).toEqual([{ key: 'provider:sim:sim:metered.ping:sim-model-1', points: 1 }]);
    const queuedTask = await h.request('GET', `/v1/tasks/${second.json.task_id}`);
    expect(queuedTask.json).toMatchObject({ status: 'queued', billing: { request_items: 1, credits: 2 } });
    const task = await h.waitForTask(second.json.task_id, (t) => t.status === 'completed', 20_000);
    // The limit (1 per 3 s) resets about 3 s after the first call; the run came no earlier.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(task.result).toEqual({ output: { results: [{ text: 'A' }] }, previews: [{ title: 'A' }] });
    expect(task.steps[0]).toMatchObject({ id: 'metered.ping', status: 'completed' });
  });

  it('20 concurrent calls over a used-up provider limit all answer at once: queued, or 429 with Retry-After past the queue depth', async () => {
    const started = Date.now();
    const all = await Promise.all(
      Array.from({ length: 20 }, () =>
        h.api.app.inject({
          method: 'POST',
          url: '/v1/apps/metered/skills/ping',
          headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
          payload: { requests: [{ text: 'b' }] },
        }),
      ),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    const by = (code: number) => all.filter((r) => r.statusCode === code);
    expect(by(200).length + by(202).length + by(429).length).toBe(20);
    // At most one finds the counter free; the queue holds QUEUE_MAX_PER_KEY=2; the rest are 429.
    expect(by(200).length).toBeLessThanOrEqual(1);
    expect(by(202)).toHaveLength(2);
    for (const r of by(429)) {
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(r.json().error.code).toBe('RATE_LIMITED');
    }
  });

  it('charges one point per request actually sent, per provider, skill and model, in memory too', async () => {
    const limits = new ProviderLimits(parseProviderRules('sim=2/60,*=1/60'));
    await limits.charge('sim', 'metered.ping', 'sim-model-1');
    // Another model, another skill and another provider each have their own counters.
    await limits.charge('sim', 'metered.ping', 'sim-model-2');
    await limits.charge('sim', 'other.skill', 'sim-model-1');
    await limits.charge('shop', 'metered.ping');
    await limits.charge('decision', 'metered.ping', 'd-1');
    expect(await limits.busy('metered.ping', [{ provider: 'sim', model: 'sim-model-1' }])).toBeUndefined();
    await limits.charge('sim', 'metered.ping', 'sim-model-1');
    const busy = await limits.busy('metered.ping', [{ provider: 'sim', model: 'sim-model-1' }]);
    const wait = Number(busy?.details['retry_after_seconds']);
    expect(busy?.message).toBe(`The sim provider limit for metered.ping is reached; retry in ${wait} s.`);
    expect(wait).toBeGreaterThanOrEqual(59);
    const err = await limits.charge('sim', 'metered.ping', 'sim-model-1').catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'UPSTREAM_RATE_LIMITED',
      message: `The sim provider limit for metered.ping is reached; retry in ${wait} s.`,
      details: { provider: 'sim', skill: 'metered.ping', model: 'sim-model-1', retry_after_seconds: wait },
    });
    expect((err as { retryAfterMs: number }).retryAfterMs).toBe(wait * 1000);
    // The `*` rule gives every other provider its own counter: shop and decision never share one.
    await expect(limits.charge('shop', 'metered.ping')).rejects.toMatchObject({
      code: 'UPSTREAM_RATE_LIMITED',
    });
    expect(await limits.busy('metered.ping', [{ provider: 'unmetered-elsewhere' }])).toBeUndefined();
    expect(() => parseProviderRules('sim=abc')).toThrow('bad provider limit entry: sim=abc');
  });
});

describe('fair use of a provider between owners', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    // The API (which decides before dispatch) and the worker (which charges each request) see
    // the same limits on the same store.
    h = await startEngine({
      config: { PROVIDER_RATE_LIMITS: 'sim=4/3', OWNER_PROVIDER_SHARE_PERCENT: 50 },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('gives each owner only its share of a provider: one owner waits, the others still run', async () => {
    const post = (token: string) =>
      h.request('POST', '/v1/apps/metered/skills/ping', { requests: [{ text: 'a' }] }, undefined, token);
    // owner_a may use 2 of the 4 per 3 s; its third call waits for its share to reset.
    const started = Date.now();
    expect((await post(h.token)).status).toBe(200);
    expect((await post(h.token)).status).toBe(200);
    const third = await post(h.token);
    expect([third.status, third.json]).toEqual([
      202,
      { task_id: expect.stringMatching(/^task_/), status: 'queued' },
    ]);
    // The queued call sent nothing. Its share was refused, so the store holds owner_a's 2 sent
    // requests; the provider point it had taken went back to this API process's lease, which the
    // store counts as held (2 sent + 1 held).
    const points = () =>
      h.api.deps.store.db
        .selectFrom('rate_limits')
        .select(['key', 'points'])
        .where('key', 'in', [
          'owner-share:sim:owner_a',
          'owner-share:sim:owner_b',
          'provider:sim:sim:metered.ping:sim-model-1',
        ])
        .orderBy('key')
        .execute();
    expect(await points()).toEqual([
      { key: 'owner-share:sim:owner_a', points: 2 },
      { key: 'provider:sim:sim:metered.ping:sim-model-1', points: 3 },
    ]);
    // owner_b is not held up by owner_a; its request spends the held provider point (no new
    // provider point is taken from the store).
    const other = await post(h.otherToken);
    expect(other.status).toBe(200);
    expect(other.json.results).toEqual([{ text: 'A' }]);
    expect(await points()).toEqual([
      { key: 'owner-share:sim:owner_a', points: 2 },
      { key: 'owner-share:sim:owner_b', points: 1 },
      { key: 'provider:sim:sim:metered.ping:sim-model-1', points: 3 },
    ]);
    const done = await h.waitForTask(third.json.task_id, (t) => t.status === 'completed', 20_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(done.result.output).toEqual({ results: [{ text: 'A' }] });
  });
});

describe('a provider limit used up in the middle of a quick call answered inline', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    // One `sim` request per 3 s: each ping item past the first waits for the next window.
    h = await startEngine({ config: { PROVIDER_RATE_LIMITS: 'sim=1/3', OWNER_PROVIDER_SHARE_PERCENT: 100 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  const usageOf = (ownerId: string) => usageRows(h.api.deps.store, { ownerId });

  it('waits for the reset within the call deadline, sends the second request and answers 200', async () => {
    const started = Date.now();
    const res = await h.request('POST', '/v1/apps/metered/skills/ping', {
      requests: [{ text: 'a' }, { text: 'b' }],
    });
    expect(res.status, res.body).toBe(200);
    expect(res.json.results).toEqual([{ text: 'A' }, { text: 'B' }]);
    // The second request waited for the next 3-s window (at most 3 s).
    expect(Date.now() - started).toBeLessThan(10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(await usageOf('owner_a')).toEqual([{ task_id: res.json.call_id, credits: 4, request_items: 2 }]);
  });

  it('fails a call whose wait would pass its 10-s deadline with 429, and does not bill it', async () => {
    // Five requests past the first need five more windows (over 12 s): the wait that would pass
    // the deadline refuses at once. A fresh window first, so the call is not queued.
    await new Promise((r) => setTimeout(r, 3100));
    const started = Date.now();
    const res = await h.request(
      'POST',
      '/v1/apps/metered/skills/ping',
      { requests: ['a', 'b', 'c', 'd', 'e'].map((text) => ({ text })) },
      undefined,
      h.otherToken,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect([res.status, res.json]).toEqual([
      429,
      {
        error: {
          code: 'UPSTREAM_RATE_LIMITED',
          message: expect.stringMatching(
            /^The sim provider limit for metered\.ping is reached; retry in \d s\.$/,
          ),
          details: {
            provider: 'sim',
            skill: 'metered.ping',
            model: 'sim-model-1',
            retry_after_seconds: expect.any(Number),
          },
        },
      },
    ]);
    await new Promise((r) => setTimeout(r, 300));
    expect(await usageOf('owner_b')).toEqual([]);
  });
});
