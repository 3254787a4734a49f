/**
 * The API's edges: authentication before body parsing, each route's body limit stated in its
 * 413, the per-IP limit of the unauthenticated routes with TRUST_PROXY and IPv6 /64 keys, server
 * timeouts, health details for admin keys only, and the codec endpoint in production.
 */
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../lib/keys.js';
import { buildTestApi, type TestApi } from '../helpers/api.js';
import { startTestTemporal } from '../helpers/temporal.js';

const UNAUTHENTICATED = {
  error: { code: 'UNAUTHENTICATED', message: 'Send Authorization: Bearer <API token>.', details: {} },
};

function rateLimited(limit: number) {
  return {
    error: {
      code: 'RATE_LIMITED',
      message: expect.stringMatching(
        new RegExp(
          `^Unauthenticated routes allow ${limit} requests per minute from one address; retry in \\d+ s\\.$`,
        ),
      ),
      details: { limit, window_seconds: 60, retry_after_seconds: expect.any(Number) },
    },
  };
}

describe('API edges', () => {
  let env: TestWorkflowEnvironment;
  let api: TestApi;
  const started: TestApi[] = [];
  const build = async (config: Parameters<typeof buildTestApi>[1]['config']) => {
    const a = await buildTestApi(env, { taskQueue: `edges-${randomUUID()}`, ...(config ? { config } : {}) });
    started.push(a);
    return a;
  };

  beforeAll(async () => {
    env = await startTestTemporal();
    api = await build({ PUBLIC_RATE_LIMIT_PER_MINUTE: 3 });
  });
  afterAll(async () => {
    for (const a of started) await a.close();
    await env?.teardown();
  });

  describe('authentication runs before the body is read', () => {
    it('answers 401, not 413, to an unauthenticated oversized body', async () => {
      for (const url of ['/v1/workflows', '/v1/keys', '/v1/apps/echo/skills/shout', '/v1/chats/webhook']) {
        const res = await api.app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/json' },
          payload: '{"x":"' + 'a'.repeat(3 * 1024 * 1024) + '"}',
        });
        expect([url, res.statusCode, res.json()]).toEqual([url, 401, UNAUTHENTICATED]);
      }
    });

    it('answers 401, not 400, to an unauthenticated malformed body', async () => {
      const res = await api.app.inject({
        method: 'POST',
        url: '/v1/keys',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sf_nope' },
        payload: '{"name": ',
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        error: { code: 'UNAUTHENTICATED', message: 'The API token is unknown or revoked.', details: {} },
      });
    });
  });

  describe('body limits', () => {
    it('answers a body one byte over the route limit with 413 stating that limit, over real HTTP', async () => {
      const own = await build(undefined);
      const base = await own.app.listen({ host: '127.0.0.1', port: 0 });
      const { token } = await createKey(own.deps.store, { name: 'big', scopes: ['*'], ownerId: 'owner_big' });
      const KiB = 1024;
      const MiB = 1024 * KiB;
      const routes: [string, number, string][] = [
        ['/v1/apps/echo/skills/shout', MiB, '1 MiB'],
        ['/v1/keys', MiB, '1 MiB'],
        ['/v1/apps/workspace/results', 2 * MiB, '2 MiB'],
        ['/v1/workflows', 256 * KiB, '256 KiB'],
        ['/v1/workflows/validate', 256 * KiB, '256 KiB'],
        ['/v1/runs/run_x/rerun', 256 * KiB, '256 KiB'],
        [`/v1/hooks/hk_${'0'.repeat(32)}`, 256 * KiB, '256 KiB'],
        ['/v1/events', 80 * KiB, '80 KiB'],
        ['/v1/runs/run_x/approvals/approve', 80 * KiB, '80 KiB'],
        ['/v1/approval-links/decide', 80 * KiB, '80 KiB'],
        ['/v1/approval-links/view', 32 * KiB, '32 KiB'],
      ];
      for (const [url, limit, human] of routes) {
        // JSON of exactly limit + 1 bytes; one byte less is read (and refused for its content).
        const body = (bytes: number) => `{"x":"${'a'.repeat(bytes - 8)}"}`;
        expect(body(limit + 1)).toHaveLength(limit + 1);
        const post = (bytes: number) =>
          fetch(`${base}${url}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: body(bytes),
          });
        const res = await post(limit + 1);
        expect([url, res.status, await res.json()]).toEqual([
          url,
          413,
          {
            error: {
              code: 'PAYLOAD_TOO_LARGE',
              message: `The request body is larger than the limit of ${human} (${limit} bytes).`,
              details: { limit_bytes: limit },
            },
          },
        ]);
        const within = await post(limit);
        expect([url, within.status]).not.toEqual([url, 413]);
        await within.arrayBuffer();
      }
    });
  });

  describe('per-IP limit of the unauthenticated routes', () => {
    it('limits health, the anonymous routes and their quote and status per address', async () => {
      const from = (remoteAddress: string, url: string, method: 'GET' | 'POST' = 'GET') =>
        api.app.inject({ method, url, remoteAddress, payload: method === 'POST' ? {} : undefined });
      const a = '198.51.100.1';
      expect((await from(a, '/v1/health')).statusCode).toBe(503);
      expect((await from(a, '/v1/anonymous/free-usage/status')).statusCode).toBe(200);
      expect((await from(a, '/v1/anonymous/apps/echo/skills/shout/quote', 'POST')).statusCode).toBe(400);
      const fourth = await from(a, '/v1/anonymous/apps/echo/skills/shout', 'POST');
      expect(fourth.statusCode).toBe(429);
      expect(fourth.json()).toEqual(rateLimited(3));
      expect(Number(fourth.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // Another address has its own allowance.
      expect((await from('198.51.100.2', '/v1/health')).statusCode).toBe(503);
    });

    it('counts IPv6 clients per /64', async () => {
      const get = (remoteAddress: string) =>
        api.app.inject({ method: 'GET', url: '/v1/health', remoteAddress });
      for (const address of ['2001:db8:7:8::1', '2001:db8:7:8:a:b:c:d', '2001:db8:7:8:ffff:ffff:ffff:fffe'])
        expect((await get(address)).statusCode).toBe(503);
      const same64 = await get('2001:db8:7:8:ffff:ffff:ffff:ffff');
      expect([same64.statusCode, same64.json()]).toEqual([429, rateLimited(3)]);
      expect((await get('2001:db8:7:9::1')).statusCode).toBe(503);
    });

    it('takes the client address from X-Forwarded-For only behind a TRUST_PROXY proxy', async () => {
      const trusting = await build({ PUBLIC_RATE_LIMIT_PER_MINUTE: 1, TRUST_PROXY: ['10.0.0.0/8'] });
      const via = (remoteAddress: string, client: string) =>
        trusting.app.inject({
          method: 'GET',
          url: '/v1/health',
          remoteAddress,
          headers: { 'x-forwarded-for': client },
        });
      expect((await via('10.1.2.3', '203.0.113.1')).statusCode).toBe(503);
      expect((await via('10.1.2.3', '203.0.113.2')).statusCode).toBe(503);
      expect((await via('10.9.9.9', '203.0.113.1')).statusCode).toBe(429);
      // An untrusted peer cannot pick its address: both requests count for 192.0.2.50.
      expect((await via('192.0.2.50', '203.0.113.3')).statusCode).toBe(503);
      expect((await via('192.0.2.50', '203.0.113.4')).statusCode).toBe(429);
    });

    it('does not limit authenticated routes by address', async () => {
      const { token } = await createKey(api.deps.store, { name: 't', scopes: ['*'], ownerId: 'owner_ip' });
      for (let i = 0; i < 5; i++) {
        const res = await api.app.inject({
          method: 'GET',
          url: '/v1/workflows',
          remoteAddress: '198.51.100.77',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.statusCode).toBe(200);
      }
    });
  });

  describe('health', () => {
    it('is public as up or down only; details need an admin key', async () => {
      const open = await api.app.inject({ method: 'GET', url: '/v1/health', remoteAddress: '198.51.100.30' });
      expect([open.statusCode, open.json()]).toEqual([503, { status: 'down' }]);
      expect(open.body).not.toContain('worker');

      const anonymous = await api.app.inject({ method: 'GET', url: '/v1/health/details' });
      expect([anonymous.statusCode, anonymous.json()]).toEqual([401, UNAUTHENTICATED]);

      const tenant = await createKey(api.deps.store, { name: 'all', scopes: ['*'], ownerId: 'owner_h' });
      const denied = await api.app.inject({
        method: 'GET',
        url: '/v1/health/details',
        headers: { authorization: `Bearer ${tenant.token}` },
      });
      expect([denied.statusCode, denied.json()]).toEqual([
        403,
        {
          error: {
            code: 'FORBIDDEN',
            message: 'The API key lacks the "admin" scope.',
            details: { required_scope: 'admin' },
          },
        },
      ]);

      const ops = await createKey(api.deps.store, { name: 'ops', scopes: ['admin'], ownerId: 'owner_ops' });
      const details = await api.app.inject({
        method: 'GET',
        url: '/v1/health/details',
        headers: { authorization: `Bearer ${ops.token}` },
      });
      expect(details.statusCode).toBe(503);
      expect(details.json()).toMatchObject({
        status: 'degraded',
        checks: { api: { status: 'up' }, worker: { status: 'down', pollers: 0 } },
      });
    });
  });

  describe('codec endpoint in production', () => {
    it('refuses even loopback clients without codec_auth_token', async () => {
      const prod = await build({ NODE_ENV: 'production' });
      const res = await prod.app.inject({ method: 'POST', url: '/codec/decode', payload: { payloads: [] } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        error: {
          code: 'FORBIDDEN',
          message: 'The codec endpoint needs codec_auth_token in production.',
          details: {},
        },
      });
    });
  });

  describe('server timeouts', () => {
    it('applies the configured request and headers timeouts to the HTTP server', async () => {
      const defaults = await build(undefined);
      expect([defaults.app.server.requestTimeout, defaults.app.server.headersTimeout]).toEqual([
        30_000, 10_000,
      ]);
    });

    it('drops a client that never finishes its headers with 408', async () => {
      const slow = await build({ HTTP_HEADERS_TIMEOUT_MS: 1000, HTTP_REQUEST_TIMEOUT_MS: 2000 });
      await slow.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = slow.app.server.address() as { port: number };
      const startedAt = Date.now();
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.write('GET /v1/health HTTP/1.1\r\nHost: x\r\n'),
        );
        let data = '';
        socket.on('data', (d: Buffer) => (data += d.toString()));
        socket.on('close', () => resolve(data));
        socket.on('error', reject);
        setTimeout(() => {
          socket.destroy();
          resolve(`still open: ${data}`);
        }, 8000).unref();
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(Date.now() - startedAt).toBeLessThan(5000);
    });
  });
});
