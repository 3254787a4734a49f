/**
 * The request line names the route pattern, never the URL, and, for an authenticated request,
 * the key and owner ids (never a token), so every write can be traced to the key that made it.
 */
import Fastify from 'fastify';
import pino from 'pino';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { RoutePatternLogController } from './request-log.js';

function appWithLog() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  const app = Fastify({ loggerInstance: pino(sink), logController: new RoutePatternLogController() });
  app.post('/v1/things/:id', async (req) => {
    req.principal = { keyId: 'key_1', ownerId: 'owner_1', scopes: ['*'], tier: 'free' };
    return {};
  });
  app.get('/v1/public/:id', async () => ({}));
  return { app, lines };
}

describe('the request log line', () => {
  it('names the key and owner of an authenticated request, and the pattern, not the URL', async () => {
    const { app, lines } = appWithLog();
    await app.inject({ method: 'POST', url: '/v1/things/secret-id?token=sf_xyz' });
    await app.inject({ method: 'GET', url: '/v1/public/other-id' });
    const requests = lines
      .filter((l) => l.msg === 'request')
      .map(({ method, route, status, keyId, ownerId }) => ({ method, route, status, keyId, ownerId }));
    expect(requests).toEqual([
      { method: 'POST', route: '/v1/things/:id', status: 200, keyId: 'key_1', ownerId: 'owner_1' },
      { method: 'GET', route: '/v1/public/:id', status: 200, keyId: undefined, ownerId: undefined },
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/secret-id|sf_xyz|other-id/);
  });
});
