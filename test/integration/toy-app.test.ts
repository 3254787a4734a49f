/**
 * Adding an app is one folder plus one entry in the catalogue list: a toy app defined only in
 * the tests (test/fixtures/toy-app/) is served beside the real apps, described by the API, called
 * over HTTP, run as a workflow step on a real Temporal server under its `<app>.<skill>`
 * activity name, and its own route is mounted, authenticated, scoped and documented.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS } from '../../activities/apps/index.js';
import { createKey } from '../../lib/keys.js';
import { toyApp } from '../fixtures/toy-app/app.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

describe('a toy app added to the catalogue', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await startEngine({ apps: [...APPS, toyApp] });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is loaded beside the real apps, without problems', () => {
    const { registry } = h.api.deps;
    expect(registry.problems).toEqual([]);
    expect(registry.apps.map((a) => a.id)).toEqual([
      'design',
      'electronics',
      'encyclopedia',
      'hosting',
      'toy',
    ]);
    expect(APPS.map((a) => a.id)).not.toContain('toy');
  });

  it('runs in one composition: the API charges the limits and serves the registry the worker uses', () => {
    expect(h.api.deps.limits).toBe(h.api.platform.limits);
    expect(h.api.deps.registry).toBe(h.api.platform.registry);
    expect(h.api.deps.temporal).toBe(h.api.platform.temporal);
  });

  it('is described by the API, its hyphenated skill id resolving', async () => {
    const app = await h.request('GET', '/v1/apps/toy');
    expect(app.status).toBe(200);
    const skill = await h.request('GET', '/v1/apps/toy/skills/count-letters');
    expect(skill.status).toBe(200);
    expect(skill.json).toEqual({
      id: 'count_letters',
      app_id: 'toy',
      title: 'Count letters',
      description: "Counts the letters of each request's text.",
      capabilities: {
        mode: 'sync',
        access: 'read',
        unattended: true,
        needs_connected_account: false,
        needs_approval: false,
      },
      anonymous_access: 'none',
      pricing: { credits_per_request: 1 },
      providers: [],
      models: [],
      available: true,
    });
    expect(app.json.skills).toEqual([skill.json]);
  });

  it('answers a call over HTTP, and rejects a bad item with its path', async () => {
    const res = await h.request('POST', '/v1/apps/toy/skills/count_letters', {
      requests: [{ text: 'Hello, world' }, { text: 'Grüße 42' }],
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      results: [{ letters: 10 }, { letters: 5 }],
      previews: [{ title: '10 letters' }, { title: '5 letters' }],
      call_id: expect.stringMatching(/^call_[0-9a-f-]{36}$/),
    });
    const bad = await h.request('POST', '/v1/apps/toy/skills/count_letters', { requests: [{ text: '' }] });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('INVALID_PARAMETER');
    expect(bad.json.error.details.issues.map((i: { path: string }) => i.path)).toEqual(['requests[0].text']);
  });

  it('runs as a workflow step, under the activity name toy.count_letters', async () => {
    const def = await h.request(
      'POST',
      '/v1/workflows',
      `title: Toy letters
start_when:
  manual: {}
steps:
  - id: count
    use_app_skill: toy.count_letters
    input:
      requests:
        - { text: Temporal }
        - { text: "a b c" }
`,
      'application/yaml',
    );
    expect(def.status).toBe(201);
    const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, {});
    expect(run.status).toBe(202);
    const task = await h.waitForTask(run.json.task_id, (t) => t.status === 'completed');
    expect(task.result.outputs.count).toEqual({ counts: [8, 3], result_count: 2 });
    const history = await h.env.client.workflow.getHandle(run.json.task_id).fetchHistory();
    const scheduled = history.events!.flatMap(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? [],
    );
    expect(scheduled).toContain('toy.count_letters');
  });

  it('serves its own route: authenticated, scoped to its skill, and in the OpenAPI document', async () => {
    const ok = await h.request('GET', '/v1/apps/toy/letters?text=Gr%C3%BC%C3%9Fe%2042');
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ letters: 5 });
    const anonymous = await h.request('GET', '/v1/apps/toy/letters?text=abc', undefined, undefined, 'nope');
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toEqual({
      error: { code: 'UNAUTHENTICATED', message: 'The API token is unknown or revoked.', details: {} },
    });
    const { token } = await createKey(h.api.deps.store, {
      name: 'design only',
      scopes: ['app:design'],
      ownerId: 'owner_a',
    });
    const scoped = await h.request('GET', '/v1/apps/toy/letters?text=abc', undefined, undefined, token);
    expect(scoped.status).toBe(403);
    expect(scoped.json).toEqual({
      error: {
        code: 'FORBIDDEN',
        message: 'The API key is not scoped to toy.count_letters.',
        details: { required_scope: ['app:toy', 'skill:toy.count_letters'] },
      },
    });
    const doc = await h.request('GET', '/v1/openapi.json');
    expect(doc.json.paths['/v1/apps/toy/letters'].get.tags).toEqual(['toy']);
    expect(doc.json.tags.map((t: { name: string }) => t.name)).toEqual([
      'skills',
      'workflows',
      'tasks',
      'encyclopedia',
      'toy',
      'operations',
    ]);
  });
});
