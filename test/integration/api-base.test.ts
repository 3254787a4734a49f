import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AesGcmPayloadCodec } from '../../lib/crypto/codec.js';
import { createKey } from '../../lib/keys.js';
import { ERROR_CATALOGUE } from '../../lib/errors/catalogue.js';
import { staticSecrets } from '../../lib/secrets.js';
import { startWorker, type RunningWorker } from '../../worker/index.js';
import { buildTestApi, type TestApi } from '../helpers/api.js';
import { startTestTemporal, TEST_KEYRING } from '../helpers/temporal.js';

describe('API base', () => {
  let env: TestWorkflowEnvironment;
  let api: TestApi;
  const taskQueue = `api-${randomUUID()}`;

  let admin: { authorization: string };
  let author: { authorization: string };

  beforeAll(async () => {
    env = await startTestTemporal();
    api = await buildTestApi(env, { taskQueue });
    const key = await createKey(api.deps.store, { name: 'ops', scopes: ['admin'], ownerId: 'owner_ops' });
    admin = { authorization: `Bearer ${key.token}` };
    const wf = await createKey(api.deps.store, { name: 'wf', scopes: ['workflows'], ownerId: 'owner_ops' });
    author = { authorization: `Bearer ${wf.token}` };
  });
  afterAll(async () => {
    await api?.close();
    await env?.teardown();
  });

  describe('GET /v1/health and /v1/health/details', () => {
    it('reports 503 with the worker down while nothing polls the task queue', async () => {
      const open = await api.app.inject({ method: 'GET', url: '/v1/health' });
      expect(open.statusCode).toBe(503);
      expect(open.json()).toEqual({ status: 'down' });
      const res = await api.app.inject({ method: 'GET', url: '/v1/health/details', headers: admin });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: 'degraded',
        checks: {
          api: { status: 'up' },
          store: { status: 'up', engine: 'pglite' },
          temporal: { status: 'up', namespace: 'default' },
          worker: {
            status: 'down',
            task_queue: taskQueue,
            pollers: 0,
            detail: 'no worker is polling the task queue',
          },
        },
      });
    });

    it('reports 200 and every part up once a worker polls', async () => {
      const worker: RunningWorker = await startWorker(api.platform, { address: env.address });
      try {
        let body: { status?: string; checks?: { worker?: { pollers?: number } } } = {};
        for (let i = 0; i < 40 && body.status !== 'ok'; i++) {
          const res = await api.app.inject({ method: 'GET', url: '/v1/health/details', headers: admin });
          body = res.json();
          if (body.status !== 'ok') await new Promise((r) => setTimeout(r, 250));
        }
        expect(body).toMatchObject({
          status: 'ok',
          checks: { worker: { status: 'up', task_queue: taskQueue } },
        });
        expect(body.checks?.worker?.pollers).toBeGreaterThanOrEqual(1);
        const open = await api.app.inject({ method: 'GET', url: '/v1/health' });
        expect([open.statusCode, open.json()]).toEqual([200, { status: 'up' }]);
      } finally {
        await worker.shutdown();
      }
    });
  });

  describe('error envelope', () => {
    it('answers an unknown route with ROUTE_NOT_FOUND', async () => {
      const res = await api.app.inject({ method: 'GET', url: '/v1/no-such-thing?q=secret' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        error: { code: 'ROUTE_NOT_FOUND', message: 'No route matches this method and path.', details: {} },
      });
    });

    it('answers an undeclared method on a known path with 405 and Allow, whatever the method', async () => {
      const notAllowed = {
        error: {
          code: 'METHOD_NOT_ALLOWED',
          message: 'The method is not allowed on this resource.',
          details: {},
        },
      };
      for (const [method, url, allow] of [
        ['TRACE', '/v1/workflows', 'GET, HEAD, POST'],
        // QUERY without a Content-Type used to fail inside Fastify with a 500.
        ['QUERY', '/v1/tasks/task_1', 'GET, HEAD'],
        ['PATCH', '/v1/workflows/wf_abc', 'DELETE, GET, HEAD, PUT'],
        // Reaches PUT /v1/workflows/:id, but the resource is the literal path. Authentication
        // runs first (onRequest), so this one is sent with a key.
        ['PUT', '/v1/workflows/validate', 'POST'],
      ] as const) {
        const headers = url === '/v1/workflows/validate' ? author : {};
        const res = await api.app.inject({ method: method as 'GET', url, headers });
        expect(res.statusCode, `${method} ${url}`).toBe(405);
        expect(res.headers.allow, `${method} ${url}`).toBe(allow);
        expect(res.json()).toEqual(notAllowed);
      }
    });

    it('answers a path parameter over the router limit in the envelope, not Fastify 414', async () => {
      const res = await api.app.inject({ method: 'GET', url: `/v1/apps/${'a'.repeat(600)}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: {
          code: 'INVALID_PARAMETER',
          message: 'Invalid params: a path parameter is too long or not valid URL encoding.',
          details: {
            issues: [{ path: '', message: 'too long or not valid URL encoding', location: 'params' }],
          },
        },
      });
    });

    it('answers headers over the Node limit with 431 in the envelope', async () => {
      await api.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = api.app.server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/v1/health`, {
        headers: { 'x-big': 'a'.repeat(20_000) },
      });
      expect(res.status).toBe(431);
      expect(await res.json()).toEqual({
        error: { code: 'HEADERS_TOO_LARGE', message: 'The request headers are too large.', details: {} },
      });
    });

    it('answers malformed JSON with INVALID_BODY', async () => {
      const res = await api.app.inject({
        method: 'POST',
        url: '/codec/decode',
        headers: { 'content-type': 'application/json' },
        payload: '{"payloads": [',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: { code: 'INVALID_BODY', message: 'The request body is not valid JSON or YAML.', details: {} },
      });
    });

    it('names the failing path of a schema violation', async () => {
      const res = await api.app.inject({
        method: 'POST',
        url: '/codec/decode',
        payload: { payloads: [{ data: 'not base64 !!' }] },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: {
          code: 'INVALID_PARAMETER',
          message: expect.stringMatching(/^Invalid body at payloads\[0\]\.data: /),
          details: { issues: [{ path: 'payloads[0].data', message: expect.any(String), location: 'body' }] },
        },
      });
    });

    it('answers an unsupported content type with UNSUPPORTED_MEDIA_TYPE', async () => {
      const res = await api.app.inject({
        method: 'POST',
        url: '/codec/decode',
        headers: { 'content-type': 'application/x-msgpack' },
        payload: 'x',
      });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({
        error: {
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: 'The request content type is not supported.',
          details: {},
        },
      });
    });
  });

  describe('codec endpoint', () => {
    it('decodes what the worker codec encoded, for loopback operators', async () => {
      const [encoded] = await new AesGcmPayloadCodec(TEST_KEYRING).encode([
        { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('"hello operator"') },
      ]);
      const payload = {
        metadata: Object.fromEntries(
          Object.entries(encoded!.metadata!).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
        ),
        data: Buffer.from(encoded!.data!).toString('base64'),
      };
      const res = await api.app.inject({
        method: 'POST',
        url: '/codec/decode',
        payload: { payloads: [payload] },
      });
      expect(res.statusCode).toBe(200);
      const out = res.json().payloads[0];
      expect(Buffer.from(out.data, 'base64').toString()).toBe('"hello operator"');
      expect(Buffer.from(out.metadata.encoding, 'base64').toString()).toBe('json/plain');
    });

    it('refuses non-loopback clients when no codec token is configured', async () => {
      const res = await api.app.inject({
        method: 'POST',
        url: '/codec/decode',
        remoteAddress: '203.0.113.9',
        payload: { payloads: [] },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        error: {
          code: 'FORBIDDEN',
          message: 'The codec endpoint is open to loopback clients only unless codec_auth_token is set.',
          details: {},
        },
      });
    });

    it('requires the bearer token when one is configured', async () => {
      const guarded = await buildTestApi(env, {
        taskQueue,
        secrets: staticSecrets({ codec_auth_token: 'op-token-123' }),
      });
      try {
        const denied = await guarded.app.inject({
          method: 'POST',
          url: '/codec/encode',
          payload: { payloads: [] },
        });
        expect(denied.statusCode).toBe(401);
        expect(denied.json()).toEqual({
          error: { code: 'UNAUTHENTICATED', message: 'A valid API token is required.', details: {} },
        });
        expect(denied.body).not.toContain('op-token-123');
        const ok = await guarded.app.inject({
          method: 'POST',
          url: '/codec/encode',
          remoteAddress: '203.0.113.9',
          headers: { authorization: 'Bearer op-token-123' },
          payload: { payloads: [] },
        });
        expect(ok.statusCode).toBe(200);
        expect(ok.json()).toEqual({ payloads: [] });
      } finally {
        await guarded.close();
      }
    });

    it('sends CORS headers for the Temporal UI origin', async () => {
      const res = await api.app.inject({
        method: 'OPTIONS',
        url: '/codec/decode',
        headers: {
          origin: 'http://localhost:8233',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'x-namespace,content-type',
        },
      });
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('http://localhost:8233');
      expect(res.headers['access-control-allow-credentials']).toBe('true');
    });
  });

  describe('OpenAPI', () => {
    it('serves an OpenAPI 3.1 document with the health route and the bearer scheme', async () => {
      const res = await api.app.inject({ method: 'GET', url: '/v1/openapi.json' });
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      expect(doc.openapi).toBe('3.1.0');
      expect(Object.keys(doc.paths)).toContain('/v1/health');
      expect(doc.components.securitySchemes.bearerAuth).toEqual({
        type: 'http',
        scheme: 'bearer',
        description: 'API key token',
      });
      const docs = await api.app.inject({ method: 'GET', url: '/v1/docs/' });
      expect(docs.statusCode).toBe(200);
      expect(docs.headers['content-type']).toContain('text/html');
    });
  });
});

describe('error catalogue documentation', () => {
  it('lists every catalogue code in docs/errors.md with its HTTP status', () => {
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    for (const [code, spec] of Object.entries(ERROR_CATALOGUE)) {
      expect(doc, code).toMatch(new RegExp(`\\| \`${code}\` +\\| ${spec.status} +\\|`));
    }
  });
});
