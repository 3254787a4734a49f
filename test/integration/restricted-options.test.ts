/**
 * `license_policy: all` (every icon license) is for approved client flows: it needs the
 * `icons:all-licenses` scope, which `*` does not include and guests never hold. Checked through
 * the real API and, for workflow steps, on a real Temporal test server: at save and run for a
 * value written in the definition, and by the skill activity for a value from a reference.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS } from '../../activities/apps/index.js';
import { createKey } from '../../lib/keys.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

const SKILL = '/v1/apps/design/skills/search_icons';
const ALL = {
  requests: [
    { query: 'home', limit: 50 },
    { query: 'home', limit: 50, license_policy: 'all' },
  ],
};

const refused = (path: string) => ({
  error: {
    code: 'FORBIDDEN',
    message: 'license_policy: all is for approved client flows: it needs the "icons:all-licenses" scope.',
    details: { path, required_scope: 'icons:all-licenses' },
  },
});

const definition = (policy: string) =>
  [
    'title: Every icon',
    'start_when:',
    '  manual:',
    '    inputs:',
    '      policy: { type: string, default: permissive }',
    'steps:',
    '  - id: icons',
    '    use_app_skill: design.search_icons',
    '    input:',
    '      requests:',
    '        - query: home',
    '          limit: 50',
    `          license_policy: ${policy}`,
    '',
  ].join('\n');

describe('license_policy all needs the icons:all-licenses scope', () => {
  let h: EngineHarness;
  let approved: string;
  beforeAll(async () => {
    h = await startEngine({ apps: APPS, config: { ICON_URL: undefined, DECISION_URL: undefined } });
    ({ token: approved } = await createKey(h.api.deps.store, {
      name: 'approved client',
      scopes: ['*', 'icons:all-licenses'],
      ownerId: 'owner_a',
    }));
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('refuses an ordinary key with 403 naming the item, and lists every license for an approved one', async () => {
    const plain = await h.request('POST', SKILL, ALL);
    expect(plain.status).toBe(403);
    expect(plain.json).toEqual(refused('requests[1].license_policy'));

    const ok = await h.request('POST', SKILL, ALL, undefined, approved);
    expect(ok.status).toBe(200);
    expect(ok.json.results.map((r: { license_policy: string }) => r.license_policy)).toEqual([
      'permissive',
      'all',
    ]);
    const ids = (i: number) => ok.json.results[i].results.map((r: { id: string }) => r.id);
    expect(ids(0)).not.toContain('typcn:home');
    expect(ids(1)).toContain('typcn:home');
    expect(ok.json.results[1].hidden_by_license).toBe(0);
  });

  it('refuses guests on the anonymous route and its quote, before anything runs', async () => {
    for (const url of [
      '/v1/anonymous/apps/design/skills/search_icons',
      '/v1/anonymous/apps/design/skills/search_icons/quote',
    ]) {
      const res = await h.api.app.inject({
        method: 'POST',
        url,
        remoteAddress: '10.9.3.1',
        headers: { 'content-type': 'application/json', 'x-skillflow-anonymous-id': randomUUID() },
        payload: JSON.stringify({ requests: [{ query: 'home', license_policy: 'all' }] }),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(refused('requests[0].license_policy'));
    }
  });

  it('is granted only by a key that holds it: `*` does not include it', async () => {
    const byPlain = await h.request('POST', '/v1/keys', { name: 'wider', scopes: ['icons:all-licenses'] });
    expect(byPlain.status).toBe(403);
    expect(byPlain.json).toEqual({
      error: {
        code: 'FORBIDDEN',
        message: 'A key cannot grant scopes its creator lacks.',
        details: { scopes: ['icons:all-licenses'] },
      },
    });
    const byApproved = await h.request(
      'POST',
      '/v1/keys',
      { name: 'approved too', scopes: ['app:design', 'icons:all-licenses'] },
      undefined,
      approved,
    );
    expect(byApproved.status).toBe(201);
    expect(byApproved.json.scopes).toEqual(['app:design', 'icons:all-licenses']);
  });

  it('checks a value written in a definition when it is saved and when it is run', async () => {
    const saved = await h.request('POST', '/v1/workflows', definition('all'), 'application/yaml');
    expect(saved.status).toBe(403);
    expect(saved.json).toEqual({
      error: {
        code: 'FORBIDDEN',
        message: 'A step of this workflow sends an option that needs the "icons:all-licenses" scope.',
        details: { step: 'icons', path: 'requests[0].license_policy', required_scope: 'icons:all-licenses' },
      },
    });
    const created = await h.request('POST', '/v1/workflows', definition('all'), 'application/yaml', approved);
    expect(created.status).toBe(201);
    const id = created.json.id as string;

    const byPlain = await h.request('POST', `/v1/workflows/${id}/runs`, {});
    expect(byPlain.status).toBe(403);
    expect(byPlain.json.error.details).toEqual({
      step: 'icons',
      path: 'requests[0].license_policy',
      required_scope: 'icons:all-licenses',
    });

    const run = await h.request('POST', `/v1/workflows/${id}/runs`, {}, undefined, approved);
    expect(run.status).toBe(202);
    const task = await h.waitForTask(
      run.json.task_id,
      (t) => t.status === 'completed' || t.status === 'failed',
    );
    expect(task.status).toBe('completed');
    expect(task.result.outputs.icons.results.map((r: { id: string }) => r.id)).toContain('typcn:home');
  });

  it('checks a value from a reference when the step runs, against the scopes of the key that started it', async () => {
    const created = await h.request(
      'POST',
      '/v1/workflows',
      definition('"{{inputs.policy}}"'),
      'application/yaml',
    );
    expect(created.status).toBe(201);
    const id = created.json.id as string;

    const permissive = await h.request('POST', `/v1/workflows/${id}/runs`, {});
    const done = await h.waitForTask(
      permissive.json.task_id,
      (t) => t.status === 'completed' || t.status === 'failed',
    );
    expect(done.status).toBe('completed');

    const plain = await h.request('POST', `/v1/workflows/${id}/runs`, { inputs: { policy: 'all' } });
    expect(plain.status).toBe(202);
    const failed = await h.waitForTask(
      plain.json.task_id,
      (t) => t.status === 'completed' || t.status === 'failed',
    );
    expect(failed.status).toBe('failed');
    expect(failed.steps[0].error).toEqual({
      code: 'FORBIDDEN',
      message: 'license_policy: all is for approved client flows: it needs the "icons:all-licenses" scope.',
    });

    const approvedRun = await h.request(
      'POST',
      `/v1/workflows/${id}/runs`,
      { inputs: { policy: 'all' } },
      undefined,
      approved,
    );
    const listed = await h.waitForTask(
      approvedRun.json.task_id,
      (t) => t.status === 'completed' || t.status === 'failed',
    );
    expect(listed.status).toBe('completed');
    expect(listed.result.outputs.icons.results.map((r: { id: string }) => r.id)).toContain('typcn:home');
  });
});
