import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OwnerProviderShare } from '../../activities/owner-provider-share.js';
import { ProviderLimits, parseProviderRules } from '../../activities/provider-limits.js';
import { createKey } from '../../lib/keys.js';
import { startWorker } from '../../worker/index.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { TEST_KEYRING } from '../helpers/fixtures.js';

describe('per-tier rate limits and provider limits on the authenticated routes', () => {
  let h: EngineHarness;
  let freeToken: string;
  beforeAll(async () => {
    h = await startEngine({
      worker: false,
      config: { SKILL_CALL_WAIT_MS: 1000, RATE_LIMIT_FREE_PER_MINUTE: 3, PROVIDER_RATE_LIMITS: 'sim=1/3' },
    });
    // The worker charges the same store-backed provider counters as the API would.
    h.worker = await startWorker({
      address: h.env.address,
      namespace: 'default',
      taskQueue: h.taskQueue,
      keyring: TEST_KEYRING,
      registry: h.api.deps.registry,
      providerLimits: new ProviderLimits(parseProviderRules('sim=1/3'), h.api.deps.store),
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

  it('counts every authenticated request per tier, with X-RateLimit headers, and answers 429 RATE_LIMITED', async () => {
    const first = await get('/v1/apps/echo');
    expect(first.statusCode).toBe(200);
    expect(first.headers).toMatchObject({
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '2',
      'x-ratelimit-reset': '60',
    });
    const skill = await h.api.app.inject({
      method: 'POST',
      url: '/v1/apps/echo/skills/shout',
      headers: { authorization: `Bearer ${freeToken}`, 'content-type': 'application/json' },
      payload: { requests: [{ text: 'x' }] },
    });
    expect(skill.statusCode).toBe(200);
    expect(skill.headers['x-ratelimit-remaining']).toBe('1');
    const missing = await get('/v1/tasks/task_nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-ratelimit-remaining']).toBe('0');
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

  it('queues a call whose provider limit is used up and lets Temporal retry it at the reset time', async () => {
    const post = () => h.request('POST', '/v1/apps/metered/skills/ping', { requests: [{ text: 'a' }] });
    const first = await post();
    expect(first.status).toBe(200);
    expect(first.json.results).toEqual([{ text: 'A' }]);
    const started = Date.now();
    const second = await post();
    expect(second.status).toBe(202);
    expect(second.json).toEqual({ task_id: expect.stringMatching(/^task_/), status: 'queued' });
    const task = await h.waitForTask(second.json.task_id, (t) => t.status === 'completed', 20_000);
    // The limit (1 per 3 s) resets about 3 s after the first call; the retry came no earlier.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(task.result).toEqual({ output: { results: [{ text: 'A' }] }, previews: [{ title: 'A' }] });
    expect(task.steps[0]).toMatchObject({ id: 'metered.ping', status: 'completed' });
  });

  it('charges provider counters per provider, skill and model, all or nothing, in memory too', async () => {
    const limits = new ProviderLimits(parseProviderRules('sim=2/60'));
    const manifest = h.api.deps.registry.available('metered', 'ping')!.manifest;
    await limits.acquire(manifest, 2);
    const err = await limits.acquire(manifest, 1).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'UPSTREAM_RATE_LIMITED',
      details: { provider: 'sim', skill: 'metered.ping', model: 'sim-model-1' },
    });
    expect((err as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(58_000);
    // A skill without providers is never limited.
    const shout = h.api.deps.registry.available('echo', 'shout')!.manifest;
    await expect(limits.acquire(shout, 5)).resolves.toBeUndefined();
    expect(() => parseProviderRules('sim=abc')).toThrow('bad provider limit entry: sim=abc');
  });

  it('gives each owner only its share of a provider: one owner waits, the others still run', async () => {
    await h.worker!.shutdown();
    const store = h.api.deps.store;
    h.worker = await startWorker({
      address: h.env.address,
      namespace: 'default',
      taskQueue: h.taskQueue,
      keyring: TEST_KEYRING,
      registry: h.api.deps.registry,
      providerLimits: new ProviderLimits(parseProviderRules('sim=4/3'), store),
      ownerShare: new OwnerProviderShare(parseProviderRules('sim=4/3'), 50, store),
    });
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
    // owner_b is not held up by owner_a.
    const other = await post(h.otherToken);
    expect(other.status).toBe(200);
    expect(other.json.results).toEqual([{ text: 'A' }]);
    const done = await h.waitForTask(third.json.task_id, (t) => t.status === 'completed', 20_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(done.result.output).toEqual({ results: [{ text: 'A' }] });
  });
});
