import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('charges one point per request actually sent, per provider, skill and model, in memory too', async () => {
    const limits = new ProviderLimits(parseProviderRules('sim=2/60,*=1/60'));
    await limits.charge('sim', 'metered.ping', 'sim-model-1');
    // Another model, another skill and another provider each have their own counters.
    await limits.charge('sim', 'metered.ping', 'sim-model-2');
    await limits.charge('sim', 'other.skill', 'sim-model-1');
    await limits.charge('shop', 'metered.ping');
    await limits.charge('decision', 'metered.ping', 'd-1');
    expect(await limits.waitSeconds('metered.ping', [{ provider: 'sim', model: 'sim-model-1' }])).toBe(0);
    await limits.charge('sim', 'metered.ping', 'sim-model-1');
    const wait = await limits.waitSeconds('metered.ping', [{ provider: 'sim', model: 'sim-model-1' }]);
    expect(wait).toBeGreaterThanOrEqual(59);
    const err = await limits.charge('sim', 'metered.ping', 'sim-model-1').catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'UPSTREAM_RATE_LIMITED',
      message: `The sim provider limit for metered.ping is reached; retry in ${wait} s.`,
      details: { provider: 'sim', skill: 'metered.ping', model: 'sim-model-1', retry_after_seconds: wait },
    });
    expect((err as { retryAfterMs: number }).retryAfterMs).toBe(wait * 1000);
    // The `*` rule gives every other provider its own counter: shop and decision never share one.
    await expect(limits.charge('shop', 'metered.ping')).rejects.toMatchObject({ code: 'UPSTREAM_RATE_LIMITED' });
    expect(await limits.waitSeconds('metered.ping', [{ provider: 'unmetered-elsewhere' }])).toBe(0);
    expect(() => parseProviderRules('sim=abc')).toThrow('bad provider limit entry: sim=abc');
  });
});
