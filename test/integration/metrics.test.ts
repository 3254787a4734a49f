/**
 * GET /metrics: admin only, and per provider request counts by status class,
 * latency histograms and cache hits and misses, from real requests to the power simulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../lib/keys.js';
import { observeUpstreams, upstreamOrigins } from '../../lib/metrics/upstream.js';
import { createPowerService } from '../../activities/apps/electronics/index.js';
import { resolvePolicy } from '../../activities/policy.js';
import { loadConfig, withValues } from '../../lib/config.js';
import { startPowerSimulator, type PowerSimulator } from '../../simulators/power/server.js';
import { buildTestApi, type TestApi } from '../helpers/api.js';
import { startTestTemporal } from '../helpers/temporal.js';

describe('GET /metrics', () => {
  let sim: PowerSimulator;
  let api: TestApi;
  let teardown: () => Promise<void>;
  beforeAll(async () => {
    sim = await startPowerSimulator({ latencyMs: 1 });
    const env = await startTestTemporal();
    teardown = () => env.teardown();
    api = await buildTestApi(env, { taskQueue: 'metrics' });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await teardown?.();
    await sim?.close();
  });

  it('counts provider requests by status class, their latency and cache lookups; admin only', async () => {
    const config = withValues(loadConfig({}), { POWER_URL: sim.url, SHOP_URL: 'http://127.0.0.1:9' });
    observeUpstreams(upstreamOrigins(config));
    const service = createPowerService(
      config.apps.electronics,
      resolvePolicy('long-running').deadlines,
      undefined,
    );
    const ctx = { signal: new AbortController().signal, charge: () => Promise.resolve() };
    const payload = {
      vinMin: 7,
      vinMax: 14,
      vout: [3.3],
      iout: [1],
      ambientTemp: 30,
      isIsolated: false,
      powerSupply: 'dc' as const,
      optimizationSetting: 2,
    };
    await service.search(payload, ctx);
    await service.search(payload, ctx);
    sim.setFault({ type: 'status', status: 502, times: 1 });
    await expect(service.parts('10652-5000-2000-10000-24000-30', ctx)).rejects.toThrow('HTTP 502');

    const { token: admin } = await createKey(api.deps.store, {
      name: 'ops',
      scopes: ['admin'],
      ownerId: 'ops',
    });
    const { token: other } = await createKey(api.deps.store, { name: 'all', scopes: ['*'], ownerId: 'o' });
    const forbidden = await api.app.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${other}` },
    });
    expect(forbidden.statusCode).toBe(403);
    const res = await api.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${admin}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const lines = res.body.split('\n');
    expect(lines).toContain('skillflow_upstream_requests_total{provider="power",status_class="2xx"} 1');
    expect(lines).toContain('skillflow_upstream_requests_total{provider="power",status_class="5xx"} 1');
    expect(lines).toContain('skillflow_upstream_cache_lookups_total{provider="power",result="miss"} 1');
    expect(lines).toContain('skillflow_upstream_cache_lookups_total{provider="power",result="hit"} 1');
    expect(lines).toContain(
      'skillflow_upstream_request_duration_seconds_count{provider="power",status_class="2xx"} 1',
    );
    expect(res.body).not.toContain('vinMin');
  }, 60_000);
});
