import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

/** A fresh stable guest id (a UUID is 36 characters of hex and hyphens). */
const guest = () => randomUUID();

describe('anonymous skill calls, quotes and free-usage status', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    // No worker: an anonymous call that needed a workflow could never finish.
    h = await startEngine({
      worker: false,
      config: {
        ANONYMOUS_IDENTITY_DAILY_CREDITS: 5,
        ANONYMOUS_IP_WEEKLY_CREDITS: 8,
        ANONYMOUS_POOL_DAILY_CREDITS: 100_000,
        PROVIDER_RATE_LIMITS: 'sim=3/60',
        // Guests as one owner may use the whole provider limit here; the share is tested elsewhere.
        OWNER_PROVIDER_SHARE_PERCENT: 100,
      },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  let ipSeq = 0;
  const freshIp = () => `10.1.0.${++ipSeq}`;

  const call = async (opts: { id?: string; ip?: string; body?: unknown; url?: string }) => {
    const res = await h.api.app.inject({
      method: 'POST',
      url: opts.url ?? '/v1/anonymous/apps/echo/skills/shout',
      remoteAddress: opts.ip ?? '10.0.0.1',
      headers: {
        'content-type': 'application/json',
        ...(opts.id !== undefined ? { 'x-skillflow-anonymous-id': opts.id } : {}),
      },
      payload: JSON.stringify(opts.body ?? { requests: [{ text: 'hi' }] }),
    });
    return { status: res.statusCode, json: res.json(), headers: res.headers };
  };
  const status = async (id: string | undefined, ip: string) => {
    const res = await h.api.app.inject({
      method: 'GET',
      url: `/v1/anonymous/free-usage/status${id ? `?anonymous_id=${id}` : ''}`,
      remoteAddress: ip,
    });
    return { status: res.statusCode, json: res.json() };
  };

  it("serves the public catalogue to guests: the apps, and a skill's details as the keyed route does", async () => {
    const apps = await h.api.app.inject({
      method: 'GET',
      url: '/v1/anonymous/apps',
      remoteAddress: freshIp(),
    });
    expect(apps.statusCode).toBe(200);
    const ids = [...new Set(h.api.deps.registry.all().map((s) => s.manifest.appId))].sort();
    expect(apps.json().apps.map((a: { id: string }) => a.id)).toEqual(ids);
    const keyedApp = await h.request('GET', '/v1/apps/echo');
    expect(apps.json().apps.find((a: { id: string }) => a.id === 'echo')).toEqual(keyedApp.json);

    const details = await h.api.app.inject({
      method: 'GET',
      url: '/v1/anonymous/apps/echo/skills/shout/details',
      remoteAddress: freshIp(),
    });
    expect(details.statusCode).toBe(200);
    expect(details.json()).toEqual((await h.request('GET', '/v1/apps/echo/skills/shout/details')).json);

    const missing = await h.api.app.inject({
      method: 'GET',
      url: '/v1/anonymous/apps/echo/skills/no_such_skill/details',
      remoteAddress: freshIp(),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      error: { code: 'SKILL_NOT_FOUND', message: 'No available skill with that id.', details: {} },
    });
  });

  it('runs an inline skill in-process and answers at once, creating no task, embed or message', async () => {
    const res = await call({ id: guest(), ip: freshIp() });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ results: [{ text: 'HI' }], previews: [{ title: 'HI' }] });
    const db = h.api.deps.store.db;
    expect(await db.selectFrom('embeds').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('chat_messages').selectAll().execute()).toEqual([]);
  });

  it('rejects a missing or malformed guest id, two request items and a bad body', async () => {
    const header = {
      code: 'INVALID_PARAMETER',
      message:
        'Invalid value at x-skillflow-anonymous-id: must be 16 to 128 letters, digits, _ or - (a stable guest id such as a UUID)',
      details: {
        issues: [
          {
            path: 'x-skillflow-anonymous-id',
            message: 'must be 16 to 128 letters, digits, _ or - (a stable guest id such as a UUID)',
          },
        ],
      },
    };
    expect(await call({})).toMatchObject({ status: 400, json: { error: header } });
    expect(await call({ id: 'short' })).toMatchObject({ status: 400, json: { error: header } });
    const two = await call({ id: guest(), body: { requests: [{ text: 'a' }, { text: 'b' }] } });
    expect(two.status).toBe(400);
    expect(two.json.error).toEqual({
      code: 'INVALID_PARAMETER',
      message: 'Invalid value at requests: the anonymous route takes exactly one request item',
      details: {
        issues: [{ path: 'requests', message: 'the anonymous route takes exactly one request item' }],
      },
    });
    const bad = await call({ id: guest(), body: { requests: [{ text: '' }] } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('INVALID_PARAMETER');
    expect(bad.json.error.details.issues.map((i: { path: string }) => i.path)).toEqual(['requests[0].text']);
  });

  it('answers 403 for a skill not open to guests and 404 for unknown or unloadable skills', async () => {
    const closed = await call({ id: guest(), url: '/v1/anonymous/apps/echo/skills/slow_echo' });
    expect(closed.status).toBe(403);
    expect(closed.json.error).toEqual({
      code: 'ANONYMOUS_NOT_ALLOWED',
      message: 'echo.slow_echo needs an API token.',
      details: { authenticated_route: '/v1/apps/echo/skills/slow_echo' },
    });
    for (const url of [
      '/v1/anonymous/apps/echo/skills/missing_impl',
      '/v1/anonymous/apps/nope/skills/shout',
    ]) {
      const res = await call({ id: guest(), url });
      expect(res.status, url).toBe(404);
      expect(res.json.error.code).toBe('SKILL_NOT_FOUND');
    }
  });

  it('allows N calls with a limit of N, then 429 at once with Retry-After; status drops 100 → 60 → 0', async () => {
    const id = guest();
    const ip = freshIp();
    expect((await status(id, ip)).json).toEqual({
      daily_remaining_percent: 100,
      can_send_text: true,
      reason: 'available',
    });
    for (let i = 0; i < 2; i++) expect((await call({ id, ip })).status).toBe(200);
    expect((await status(id, ip)).json).toEqual({
      daily_remaining_percent: 60,
      can_send_text: true,
      reason: 'available',
    });
    for (let i = 0; i < 3; i++) expect((await call({ id, ip })).status).toBe(200);
    const started = Date.now();
    const over = await call({ id, ip });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(over.status).toBe(429);
    const seconds = over.json.error.details.retry_after_seconds as number;
    expect(seconds).toBeGreaterThan(86_000);
    expect(seconds).toBeLessThanOrEqual(86_400);
    expect(over.headers['retry-after']).toBe(String(seconds));
    expect(over.json.error).toEqual({
      code: 'ANONYMOUS_LIMIT_EXHAUSTED',
      message: `The free allowance is used up (daily limit reached); retry in ${seconds} s or use an API token.`,
      details: { reason: 'daily_limit_reached', retry_after_seconds: seconds },
    });
    expect((await status(id, ip)).json).toEqual({
      daily_remaining_percent: 0,
      can_send_text: false,
      reason: 'daily_limit_reached',
    });
  });

  it('never overspends: 20 concurrent calls against a limit of 5 give exactly 5 successes', async () => {
    const id = guest();
    const ip = freshIp();
    const results = await Promise.all(Array.from({ length: 20 }, () => call({ id, ip })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    const rejected = results.filter((r) => r.status === 429);
    expect(rejected).toHaveLength(15);
    expect(new Set(rejected.map((r) => r.json.error.code))).toEqual(new Set(['ANONYMOUS_LIMIT_EXHAUSTED']));
    // The rejected 15 charged nothing: the IP has spent exactly 5 of its weekly 8.
    expect((await call({ id: guest(), ip })).status).toBe(200);
    expect((await call({ id: guest(), ip })).status).toBe(200);
    expect((await call({ id: guest(), ip })).status).toBe(200);
    expect((await call({ id: guest(), ip })).json.error.details.reason).toBe('weekly_limit_reached');
  });

  it('reflects the weekly IP limit in can_send_text and reason; without an id the percent is null', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await call({ id: 'guest-a-0000000001', ip })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await call({ id: 'guest-b-0000000001', ip })).status).toBe(200);
    const fourth = await call({ id: 'guest-b-0000000001', ip });
    expect(fourth.json.error).toMatchObject({
      code: 'ANONYMOUS_LIMIT_EXHAUSTED',
      details: { reason: 'weekly_limit_reached' },
    });
    expect((await status('guest-b-0000000001', ip)).json).toEqual({
      daily_remaining_percent: 40,
      can_send_text: false,
      reason: 'weekly_limit_reached',
    });
    expect((await status(undefined, ip)).json).toEqual({
      daily_remaining_percent: null,
      can_send_text: false,
      reason: 'weekly_limit_reached',
    });
    expect((await status(undefined, freshIp())).json).toEqual({
      daily_remaining_percent: null,
      can_send_text: true,
      reason: 'available',
    });
    const bad = await status('no', ip);
    expect(bad).toEqual({
      status: 400,
      json: {
        error: {
          code: 'INVALID_PARAMETER',
          message: 'Invalid value at anonymous_id: must be 16 to 128 letters, digits, _ or -',
          details: {
            issues: [{ path: 'anonymous_id', message: 'must be 16 to 128 letters, digits, _ or -' }],
          },
        },
      },
    });
  });

  it('refunds only when nothing was sent upstream: a failure after a provider request costs the credit', async () => {
    const id = guest();
    const ip = freshIp();
    const sent = await call({
      id,
      ip,
      url: '/v1/anonymous/apps/metered/skills/ping',
      body: { requests: [{ text: 'x', fail: 'UPSTREAM_UNAVAILABLE' }] },
    });
    expect(sent).toMatchObject({ status: 503, json: { error: { code: 'UPSTREAM_UNAVAILABLE' } } });
    // ping costs 2 of the guest's 5 daily credits, and its request reached the provider.
    expect((await status(id, ip)).json.daily_remaining_percent).toBe(60);
  });

  it('refunds a reservation when the skill fails before sending anything, but not when the guest sent a bad request', async () => {
    const id = guest();
    const ip = freshIp();
    const upstream = await call({
      id,
      ip,
      body: { requests: [{ text: 'x', fail: 'UPSTREAM_UNAVAILABLE' }] },
    });
    expect(upstream).toMatchObject({
      status: 503,
      json: {
        error: { code: 'UPSTREAM_UNAVAILABLE', message: 'An upstream provider is unavailable.', details: {} },
      },
    });
    expect((await status(id, ip)).json.daily_remaining_percent).toBe(100);
    const own = await call({ id, ip, body: { requests: [{ text: 'x', fail: 'INVALID_PARAMETER' }] } });
    expect(own).toMatchObject({
      status: 400,
      json: { error: { code: 'INVALID_PARAMETER', message: 'A request parameter is invalid.', details: {} } },
    });
    expect((await status(id, ip)).json.daily_remaining_percent).toBe(80);
  });

  it('quotes without reserving or running, and reports provider limits as an immediate 429', async () => {
    const id = guest();
    const ip = freshIp();
    const quote = async (gid: string, url = '/v1/anonymous/apps/metered/skills/ping/quote') =>
      h.api.app.inject({
        method: 'POST',
        url,
        remoteAddress: ip,
        headers: { 'content-type': 'application/json', 'x-skillflow-anonymous-id': gid },
        payload: { requests: [{ text: 'q' }] },
      });
    const q = await quote(id);
    expect(q.statusCode).toBe(200);
    expect(q.json()).toEqual({
      app_id: 'metered',
      skill_id: 'ping',
      can_run: true,
      credits: 2,
      reason: 'available',
      retry_after_seconds: null,
      free_usage: { daily_remaining_percent: 100, can_send_text: true, reason: 'available' },
    });
    expect((await status(id, ip)).json.daily_remaining_percent).toBe(100);

    // sim=3/60: calls by new guests use the provider counter up (earlier tests may have used some).
    let served = 0;
    while (
      (await call({ id: guest(), ip: freshIp(), url: '/v1/anonymous/apps/metered/skills/ping' })).status ===
      200
    )
      served += 1;
    expect(served).toBeGreaterThanOrEqual(1);
    expect(served).toBeLessThanOrEqual(3);
    const limited = await call({ id, ip, url: '/v1/anonymous/apps/metered/skills/ping' });
    expect(limited.status).toBe(429);
    const seconds = limited.json.error.details.retry_after_seconds as number;
    expect(seconds).toBeGreaterThan(50);
    expect(limited.headers['retry-after']).toBe(String(seconds));
    expect(limited.json.error).toEqual({
      code: 'UPSTREAM_RATE_LIMITED',
      message: `The sim provider limit for metered.ping is reached; retry in ${seconds} s.`,
      details: { provider: 'sim', skill: 'metered.ping', model: 'sim-model-1', retry_after_seconds: seconds },
    });
    // The reservation was given back.
    expect((await status(id, ip)).json.daily_remaining_percent).toBe(100);
    const busy = (await quote(id)).json();
    expect(busy).toMatchObject({ can_run: false, credits: 2, reason: 'provider_busy' });
    expect(busy.retry_after_seconds).toBeGreaterThan(50);
    const badQuote = await h.api.app.inject({
      method: 'POST',
      url: '/v1/anonymous/apps/echo/skills/shout/quote',
      remoteAddress: ip,
      headers: { 'content-type': 'application/json', 'x-skillflow-anonymous-id': id },
      payload: { requests: [] },
    });
    expect(badQuote.statusCode).toBe(400);
    expect(badQuote.json().error.details.issues[0].path).toBe('requests');
  });

  it('stores only keyed hashes: no guest id or IP appears in the counters', async () => {
    const id = 'privacy-probe-guest-42';
    expect((await call({ id, ip: '10.9.9.9' })).status).toBe(200);
    const keys = (await h.api.deps.store.db.selectFrom('rate_limits').select('key').execute())
      .map((r) => r.key)
      .join('\n');
    expect(keys).toContain('anon:identity:daily:');
    expect(keys).not.toContain(id);
    expect(keys).not.toContain('10.9.9.9');
  });

  it('is left out of the OpenAPI document', async () => {
    const doc = (await h.api.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    expect(Object.keys(doc.paths).filter((p) => p.includes('anonymous'))).toEqual([]);
  });
});
