import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { staticSecrets } from '../../../../lib/secrets.js';
import { startProxy, type ProxySimulator } from '../../../../simulators/proxy/proxy-server.js';
import { startShopSimulator, type ShopSimulator } from '../../../../simulators/shop/server.js';
import { createShopClient, isProxyEligible, ShopError } from './index.js';
import { POLICY_PROFILES } from '../../../policy.js';

const SEARCH_DEADLINES = POLICY_PROFILES['upstream-search'].deadlines;

const USER = 'res-user-7731';
const PASS = 's3cret-Pa55-zq9';
const EUR_DE = { currency: 'EUR', country: 'DE' };

let sim: ShopSimulator;
let proxy: ProxySimulator;

beforeAll(async () => {
  sim = await startShopSimulator();
  proxy = await startProxy({ username: USER, password: PASS });
});
afterAll(async () => {
  await proxy.close();
  await sim.close();
});
beforeEach(() => {
  sim.reset();
  proxy.clearLog();
});

/** Every rendering of an error a log line or an API answer could contain. */
function renderings(err: unknown): string {
  const e = err as Error & { details?: unknown };
  return [e.message, e.stack, JSON.stringify(e), JSON.stringify(e.details), inspect(e, { depth: 10 })].join(
    '\n',
  );
}

function expectNoSecrets(err: unknown): void {
  const text = renderings(err);
  expect(text).not.toContain(PASS);
  expect(text).not.toContain(USER);
  expect(text).not.toContain(Buffer.from(`${USER}:${PASS}`).toString('base64'));
}

describe('shop requests through the residential proxy', () => {
  it('a lookup via proxy tunnels through it with basic auth and keeps the browser headers', async () => {
    const shop = createShopClient({
      idleTimeoutMs: SEARCH_DEADLINES.idleTimeoutMs,
      shopUrl: sim.url,
      proxyUrl: proxy.url,
      secrets: staticSecrets({ proxy_username: USER, proxy_password: PASS }),
    });
    try {
      const r = await shop.lookup('cedar.online', EUR_DE, { via: 'proxy' });
      expect(r.fqdn).toBe('cedar.online');
      expect(proxy.log()).toEqual([
        { method: 'CONNECT', host: new URL(sim.url).host, path: undefined, authorized: true },
      ]);
      const [rec] = sim.requests();
      expect(rec?.query).toBe('search=cedar.online&currency=EUR&country=DE&grid=A');
      expect(rec?.headers).not.toHaveProperty('origin');
      expect(rec?.headers).not.toHaveProperty('proxy-authorization');
      expect(rec?.headers.referer).toBe(`${sim.url}/`);
    } finally {
      await shop.close();
    }
  });

  it('a direct lookup never touches the proxy', async () => {
    const shop = createShopClient({
      idleTimeoutMs: SEARCH_DEADLINES.idleTimeoutMs,
      shopUrl: sim.url,
      proxyUrl: proxy.url,
      secrets: staticSecrets({ proxy_username: USER, proxy_password: PASS }),
    });
    try {
      await shop.lookup('cedar.online', EUR_DE);
      expect(proxy.log()).toEqual([]);
      expect(sim.requests()).toHaveLength(1);
    } finally {
      await shop.close();
    }
  });

  it('a suggestion stream via proxy completes', async () => {
    const shop = createShopClient({
      idleTimeoutMs: SEARCH_DEADLINES.idleTimeoutMs,
      shopUrl: sim.url,
      proxyUrl: proxy.url,
      secrets: staticSecrets({ proxy_username: USER, proxy_password: PASS }),
    });
    try {
      const seen: string[] = [];
      for await (const e of shop.suggest('cedar', 'com', { page: 1, ...EUR_DE }, { via: 'proxy' }))
        seen.push(e.event);
      expect(seen.at(-1)).toBe('done');
      expect(proxy.log().map((e) => [e.method, e.authorized])).toEqual([['CONNECT', true]]);
    } finally {
      await shop.close();
    }
  });

  it('wrong credentials fail with a clear 407 proxy error that names no secret, and nothing reaches the shop', async () => {
    const wrong = 'wr0ng-Pa55-xx1';
    const shop = createShopClient({
      idleTimeoutMs: SEARCH_DEADLINES.idleTimeoutMs,
      shopUrl: sim.url,
      proxyUrl: proxy.url,
      secrets: staticSecrets({ proxy_username: USER, proxy_password: wrong }),
    });
    try {
      const err = await shop.lookup('cedar.online', EUR_DE, { via: 'proxy' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ShopError);
      expect(err).toMatchObject({
        kind: 'proxy',
        via: 'proxy',
        httpStatus: 407,
        message: 'The residential proxy rejected its credentials (407).',
      });
      expect(isProxyEligible(err)).toBe(false);
      expectNoSecrets(err);
      expect(renderings(err)).not.toContain(wrong);
      expect(proxy.log()).toEqual([
        { method: 'CONNECT', host: new URL(sim.url).host, path: undefined, authorized: false },
      ]);
      expect(sim.requests()).toEqual([]);
    } finally {
      await shop.close();
    }
  });

  it('upstream failures through the proxy carry no secret and are never eligible for another proxy attempt', async () => {
    const shop = createShopClient({
      idleTimeoutMs: SEARCH_DEADLINES.idleTimeoutMs,
      shopUrl: sim.url,
      proxyUrl: `http://${USER}:${PASS}@${new URL(proxy.url).host}`,
      secrets: staticSecrets({ proxy_username: USER, proxy_password: PASS }),
    });
    try {
      for (const name of ['fault-500.com', 'fault-403.com', 'fault-malformed.com']) {
        const err = await shop.lookup(name, EUR_DE, { via: 'proxy' }).catch((e: unknown) => e);
        expect(err).toMatchObject({ via: 'proxy' });
        expect(isProxyEligible(err)).toBe(false);
        expectNoSecrets(err);
      }
    } finally {
      await shop.close();
    }
  });

  it('an unreachable proxy and a missing configuration are proxy errors without secrets', async () => {
    const closed = await startProxy({ username: USER, password: PASS });
    const deadUrl = closed.url;
    await closed.close();
    const dead = createShopClient({
      idleTimeoutMs: SEARCH_DEADLINES.idleTimeoutMs,
      shopUrl: sim.url,
      proxyUrl: deadUrl,
      secrets: staticSecrets({ proxy_username: USER, proxy_password: PASS }),
    });
    const unconfigured = createShopClient({
      idleTimeoutMs: SEARCH_DEADLINES.idleTimeoutMs,
      shopUrl: sim.url,
      secrets: staticSecrets({ proxy_username: USER, proxy_password: PASS }),
    });
    try {
      const e1 = await dead.lookup('cedar.online', EUR_DE, { via: 'proxy' }).catch((e: unknown) => e);
      expect(e1).toMatchObject({ kind: 'proxy', message: 'The residential proxy could not be reached.' });
      expectNoSecrets(e1);
      const e2 = await unconfigured.lookup('cedar.online', EUR_DE, { via: 'proxy' }).catch((e: unknown) => e);
      expect(e2).toMatchObject({ kind: 'proxy', message: 'The residential proxy is not configured.' });
      expect(sim.requests()).toEqual([]);
    } finally {
      await dead.close();
      await unconfigured.close();
    }
  });
});
