/**
 * The SDK against a real local HTTP server (listen(0)): path and naming rules of the apps Proxy,
 * bearer auth, bodies per content type, error envelopes → SkillflowApiError, connection
 * failures → SkillflowClientError, and tasks.wait polling to a terminal state.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, SkillflowApiError, SkillflowClientError, snakeCase } from './index.js';

interface Seen {
  method: string;
  url: string;
  auth: string | undefined;
  type: string | undefined;
  body: string;
}

describe('SDK client', () => {
  let server: Server;
  let base: string;
  const seen: Seen[] = [];
  let polls = 0;

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({
          method: req.method!,
          url: req.url!,
          auth: req.headers.authorization,
          type: req.headers['content-type'],
          body,
        });
        const send = (status: number, value: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(value));
        };
        if (req.url?.startsWith('/v1/apps/hosting/skills/search_domains'))
          return send(200, { results: [], previews: [], call_id: 'call_1' });
        if (req.url === '/v1/apps/echo/skills/bad') {
          return send(400, {
            error: {
              code: 'INVALID_PARAMETER',
              message: 'Invalid body',
              details: { issues: [{ path: 'requests[0].text', message: 'Required' }] },
            },
          });
        }
        if (req.url === '/v1/tasks/t2') {
          polls++;
          return send(200, { task_id: 't2', status: polls < 3 ? 'running' : 'completed', steps: [] });
        }
        if (req.url === '/v1/workflows/wf_x' && req.method === 'DELETE') return res.writeHead(204).end();
        if (req.url === '/v1/assets/download-links')
          return send(200, {
            url: `${base.replace(/\/v1\/$/, '')}/v1/assets/download/v2.k.s`,
            expires_at: 'x',
          });
        if (req.url === '/v1/assets/download/v2.k.s') {
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          return res.end(Buffer.from([0, 255, 1]));
        }
        send(404, { error: { code: 'ROUTE_NOT_FOUND', message: 'No route', details: {} } });
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('maps camelCase methods to snake_case skill routes, with the token and team_id', async () => {
    const client = createClient({ baseUrl: base, token: 'sf_test' });
    const res = await client.apps.hosting.searchDomains(
      { requests: [{ query: 'cedar' }] },
      { teamId: 'team_1' },
    );
    expect(res).toEqual({ results: [], previews: [], call_id: 'call_1' });
    expect(seen.at(-1)).toEqual({
      method: 'POST',
      url: '/v1/apps/hosting/skills/search_domains?team_id=team_1',
      auth: 'Bearer sf_test',
      type: 'application/json',
      body: '{"requests":[{"query":"cedar"}]}',
    });
    expect(snakeCase('searchDomains')).toBe('search_domains');
    expect(snakeCase('search-domains')).toBe('search_domains');
    expect(snakeCase('shout')).toBe('shout');
    // An app proxy is not a thenable, so `await client.apps.hosting` does not call a skill.
    expect((client.apps.hosting as unknown as { then?: unknown }).then).toBeUndefined();
  });

  it('throws SkillflowApiError with status, code, message and details', async () => {
    const client = createClient({ baseUrl: base, token: 'sf_test' });
    const e = await client.app('echo').bad!({ requests: [{}] }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SkillflowApiError);
    const api = e as SkillflowApiError;
    expect([api.status, api.code, api.message]).toEqual([400, 'INVALID_PARAMETER', 'Invalid body']);
    expect(api.issues).toEqual([{ path: 'requests[0].text', message: 'Required' }]);
    expect(api.message).not.toContain('sf_test');
  });

  it('sends YAML definitions as application/yaml and handles 204', async () => {
    const client = createClient({ baseUrl: base, token: 'sf_test' });
    await expect(client.workflows.create('title: x\n')).rejects.toMatchObject({
      status: 404,
      code: 'ROUTE_NOT_FOUND',
    });
    expect(seen.at(-1)?.type).toBe('application/yaml');
    await client.workflows.validate('{"title":"x"}').catch(() => undefined);
    expect(seen.at(-1)?.type).toBe('application/json');
    await expect(client.workflows.delete('wf_x')).resolves.toBeUndefined();
  });

  it('waits for a task, reporting each snapshot', async () => {
    const client = createClient({ baseUrl: base, token: 'sf_test' });
    const statuses: string[] = [];
    const task = await client.tasks.wait('t2', {
      intervalMs: 10,
      onProgress: (t) => statuses.push(t.status),
    });
    expect(task.status).toBe('completed');
    expect(statuses).toEqual(['running', 'running', 'completed']);
  });

  it('asks for a download link with the token, then fetches its bytes without it', async () => {
    const client = createClient({ baseUrl: base, token: 'sf_test' });
    const bytes = await client.assets.download({ embedId: 'emb_1', asset: 'parts', design: 1 });
    expect([...bytes]).toEqual([0, 255, 1]);
    const [ask, fetched] = seen.slice(-2);
    expect(ask).toMatchObject({
      method: 'POST',
      url: '/v1/assets/download-links',
      auth: 'Bearer sf_test',
      body: '{"embed_id":"emb_1","asset":"parts","design":1}',
    });
    expect(fetched).toMatchObject({ method: 'GET', url: '/v1/assets/download/v2.k.s', auth: undefined });
  });

  it('reports an unreachable API as a SkillflowClientError', async () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:1', token: 'sf_test' });
    const e = await client.workflows.list().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SkillflowClientError);
    expect((e as SkillflowClientError).code).toBe('CONNECTION_FAILED');
  });
});
