/**
 * `hosting.search_domains` through the real API, worker and Temporal test server, against the
 * shop simulator and a basic-auth proxy on loopback: the fallback,
 * rate-limit and deadline rules that only hold end to end (no re-run of the search, which runs in the API process, Retry-After on every 429,
 * the anonymous route that never waits and refunds only when nothing was sent).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { staticSecrets } from '../../lib/secrets.js';
import { startProxy, type ProxySimulator } from '../../simulators/proxy/proxy-server.js';
import { startShopSimulator, type ShopSimulator } from '../../simulators/shop/server.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { APPS } from '../../activities/apps/index.js';

const SKILL = '/v1/apps/hosting/skills/search_domains';
const ANONYMOUS = '/v1/anonymous/apps/hosting/skills/search_domains';

describe('domain search over HTTP', () => {
  let h: EngineHarness;
  let sim: ShopSimulator;
  let proxy: ProxySimulator;
  beforeAll(async () => {
    sim = await startShopSimulator();
    proxy = await startProxy({ username: 'res-user', password: 'res-pass-9' });
    h = await startEngine({
      apps: APPS,
      config: { SHOP_URL: sim.url, PROXY_URL: proxy.url, DECISION_URL: undefined },
      secrets: staticSecrets({ proxy_username: 'res-user', proxy_password: 'res-pass-9' }),
    });
  });
  afterAll(async () => {
    await h?.close();
    await proxy?.close();
    await sim?.close();
  });
  /** Workflows the API starts (a pass-through spy on its Temporal client). */
  let starts: MockInstance | undefined;
  beforeEach(() => {
    starts ??= vi.spyOn(h.api.deps.temporal.client.workflow, 'start');
    starts.mockClear();
    sim.reset();
    proxy.clearLog();
  });

  const count = (calls: string[]) =>
    calls.reduce<Record<string, number>>((acc, c) => ({ ...acc, [c]: (acc[c] ?? 0) + 1 }), {});
  const shopLog = () =>
    sim
      .requests()
      .map((r) => `${r.op} ${(r.params['search'] ?? []).join()}|${(r.params['tlds'] ?? []).join()}`);
  // Through the API: an inline call's record is written just after the answer (batched).
  const lastTaskId = async () =>
    (await h.request('GET', '/v1/usage?limit=1')).json.records[0]?.task_id as string | undefined;

  it('one lazy proxy attempt means one: every operation fails direct and through the proxy, and the search is never re-run', async () => {
    sim.setFaults([
      { type: 'latency', ms: 600 },
      { type: 'status', status: 403 },
    ]);
    const started = Date.now();
    const res = await h.request('POST', SKILL, {
      requests: [{ query: 'alderwood.com' }, { query: 'alderwood', tlds: ['net'], max_results: 1 }],
    });
    const elapsed = Date.now() - started;
    expect(res.status).toBe(503);
    expect(res.json).toEqual({
      error: {
        code: 'UPSTREAM_UNAVAILABLE',
        message: 'All 2 domain search(es) failed upstream; nothing could be checked.',
        details: {
          groups: [
            { index: 0, code: 'UPSTREAM_UNAVAILABLE' },
            { index: 1, code: 'UPSTREAM_UNAVAILABLE' },
          ],
        },
      },
    });
    // Exactly one direct and one proxied request per operation.
    expect(count(shopLog())).toEqual({
      'lookup alderwood.com|': 2,
      'lookup alderwood.net|': 2,
      'suggest alderwood|net': 2,
    });
    // The second request of each operation went through the proxy (its tunnels may be reused).
    const tunnels = proxy.log().filter((e) => e.method === 'CONNECT' && e.authorized).length;
    expect(tunnels).toBeGreaterThanOrEqual(1);
    expect(tunnels).toBeLessThanOrEqual(3);
    // Well within the 40 s group deadline: no re-run with backoff behind it.
    expect(elapsed).toBeLessThan(10_000);
    // Answered in the API process: no workflow, so nothing Temporal could re-run; charged once.
    expect(starts!.mock.calls).toEqual([]);
    expect(await lastTaskId()).toMatch(/^call_/);
  });

  it('every 429 carries Retry-After: an upstream 429 after the call sent is its answer, never a queued task', async () => {
    const res = await h.request('POST', SKILL, { requests: [{ id: 'a', query: 'fault-429.com' }] });
    expect(res.status).toBe(429);
    expect(starts!.mock.calls).toEqual([]);
    expect(res.json).toEqual({
      error: {
        code: 'UPSTREAM_RATE_LIMITED',
        message: 'All 1 domain search(es) failed upstream; nothing could be checked.',
        details: {
          retry_after_seconds: 7,
          groups: [{ index: 0, code: 'UPSTREAM_RATE_LIMITED', retry_after: 7 }],
        },
      },
    });
    // The one wait fitted the 40 s deadline: the lookup was retried once, 7 s later, then no more.
    const log = sim.requests();
    expect(log.map((r) => r.status)).toEqual([429, 429]);
    expect(log[1]!.at - log[0]!.at).toBeGreaterThanOrEqual(7000);
    expect(proxy.log()).toEqual([]);
  }, 30_000);

  it('an emoji name is invalid input: the envelope names the path and the rule, and the shop is never asked', async () => {
    const rule =
      'Not a valid domain name: a label has a character IDNA2008 does not allow, such as an emoji or symbol.';
    const res = await h.request('POST', SKILL, {
      requests: [{ query: 'alderwood.com' }, { query: '🙂.com' }],
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      error: {
        code: 'INVALID_PARAMETER',
        message: `Invalid body at requests[1].query: ${rule}`,
        details: { issues: [{ path: 'requests[1].query', message: rule, location: 'body' }] },
      },
    });
    expect(res.body).not.toContain('🙂');
    expect(sim.requests()).toEqual([]);
    expect(starts!.mock.calls).toEqual([]);
  });

  it('every 429 response carries the Retry-After header', async () => {
    sim.setFaults([{ type: 'status', status: 429, retryAfter: '45', op: 'lookup' }]);
    const res = await h.api.app.inject({
      method: 'POST',
      url: SKILL,
      headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
      payload: { requests: [{ query: 'alderwood.com' }] },
    });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('45');
    expect(res.headers['x-ratelimit-remaining']).toBeDefined();
    expect(res.headers['x-ratelimit-reset']).toBeDefined();
  });

  describe('the anonymous route', () => {
    let ip = 0;
    const anonymous = (body: unknown, guest = randomUUID()) =>
      h.api.app.inject({
        method: 'POST',
        url: ANONYMOUS,
        remoteAddress: `10.9.0.${++ip}`,
        headers: { 'content-type': 'application/json', 'x-skillflow-anonymous-id': guest },
        payload: body as object,
      });
    const percent = async (guest: string) =>
      (
        await h.api.app.inject({
          method: 'GET',
          url: `/v1/anonymous/free-usage/status?anonymous_id=${guest}`,
          remoteAddress: `10.9.0.${ip}`,
        })
      ).json().daily_remaining_percent as number;

    it('answers one search inline, in-process, with previews and no task', async () => {
      const res = await anonymous({ requests: [{ id: 'x', query: 'alderwood.com' }] });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['previews', 'results']);
      expect(body.results[0]).toMatchObject({
        id: 'x',
        error: null,
        results: [{ domain: 'alderwood.com', availability: 'available', pricing_status: 'priced' }],
      });
      expect(shopLog()).toEqual(['lookup alderwood.com|']);
    });

    it('never waits: an upstream 429 answers at once with 429, Retry-After and the envelope, and the credit stays spent', async () => {
      const guest = randomUUID();
      const started = Date.now();
      const res = await anonymous({ requests: [{ query: 'fault-429.com' }] }, guest);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBe('7');
      expect(res.json()).toEqual({
        error: {
          code: 'UPSTREAM_RATE_LIMITED',
          message: 'The shop asked us to slow down; retry in 7 s.',
          details: { provider: 'shop', retry_after_seconds: 7 },
        },
      });
      expect(shopLog()).toEqual(['lookup fault-429.com|']);
      // A request reached the shop, so the guest paid for it (20 credits a day: 1 is 5 %).
      expect(await percent(guest)).toBe(95);
    });

    it('an upstream failure after a request was sent is not refunded either', async () => {
      const guest = randomUUID();
      const res = await anonymous({ requests: [{ query: 'fault-403.com' }] }, guest);
      expect(res.statusCode).toBe(503);
      expect(res.json().error.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(await percent(guest)).toBe(95);
    });
  });
});
