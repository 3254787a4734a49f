import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { openJson } from '../../lib/crypto/sealed-value.js';
import { sealedCell } from '../../lib/store/sealed-columns.js';
import { createKey } from '../../lib/keys.js';
import { TEST_KEYRING } from '../helpers/fixtures.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

describe('skill discovery and authenticated skill calls', () => {
  let h: EngineHarness;
  /** Every workflow the API starts (a pass-through spy on the API's Temporal client). */
  let starts: MockInstance;
  beforeAll(async () => {
    h = await startEngine();
    starts = vi.spyOn(h.api.deps.temporal.client.workflow, 'start');
  });
  const startedIds = () => starts.mock.calls.map((c) => (c[1] as { workflowId: string }).workflowId);
  const notFound = { error: { code: 'NOT_FOUND', message: 'No task with this id.', details: {} } };
  afterAll(async () => {
    await h?.close();
  });

  it('describes an app, marking a skill that failed to load as unavailable', async () => {
    const res = await h.request('GET', '/v1/apps/echo');
    expect(res.status).toBe(200);
    expect(res.json.skills.map((s: { id: string; available: boolean }) => [s.id, s.available])).toEqual([
      ['shout', true],
      ['slow_echo', true],
      ['missing_impl', false],
    ]);
    expect((await h.request('GET', '/v1/apps/nope')).json.error.code).toBe('SKILL_NOT_FOUND');
  });

  it('describes one skill (GET /v1/apps/{app}/skills/{skill}), hyphens resolving, 404 when unloadable', async () => {
    const expected = {
      id: 'shout',
      app_id: 'echo',
      title: 'Shout',
      description: "Upper-cases each request's text.",
      capabilities: {
        mode: 'sync',
        access: 'read',
        unattended: true,
        needs_connected_account: false,
        needs_approval: false,
      },
      anonymous_access: 'inline',
      pricing: { credits_per_request: 1 },
      providers: [],
      models: [],
      available: true,
    };
    const res = await h.request('GET', '/v1/apps/echo/skills/shout');
    expect(res.status).toBe(200);
    expect(res.json).toEqual(expected);
    const missing = await h.request('GET', '/v1/apps/echo/skills/missing_impl');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({
      error: {
        code: 'SKILL_NOT_FOUND',
        message: 'No available skill with that id.',
        details: {},
      },
    });
    const unauthenticated = await h.api.app.inject({ method: 'GET', url: '/v1/apps/echo/skills/shout' });
    expect(unauthenticated.statusCode).toBe(401);
  });

  it('serves skill details with the JSON Schema generated from zod', async () => {
    const res = await h.request('GET', '/v1/apps/echo/skills/shout/details');
    expect(res.status).toBe(200);
    expect(res.json.request_schema).toMatchObject({
      type: 'object',
      required: ['requests'],
      properties: { requests: { type: 'array', minItems: 1, maxItems: 5 } },
      additionalProperties: false,
    });
    expect(res.json.request_item_schema.properties.text).toEqual({
      type: 'string',
      minLength: 1,
      maxLength: 200,
    });
    expect(res.json).toMatchObject({
      primary_fields: ['text'],
      pricing: { credits_per_request: 1 },
      execution: {
        available: true,
        mode: 'sync',
        anonymous: true,
        policy: 'local',
        timeout_ms: 60_000,
        max_attempts: 3,
        max_retry_interval_ms: 5_000,
      },
      decision_pricing: null,
    });
  });

  it('runs a quick skill in the API process: inline answer with previews and call_id, no workflow started', async () => {
    const before = starts.mock.calls.length;
    const res = await h.request('POST', '/v1/apps/echo/skills/shout', {
      requests: [{ text: 'hi' }, { text: 'there' }],
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      results: [{ text: 'HI' }, { text: 'THERE' }],
      previews: [{ title: 'HI' }, { title: 'THERE' }],
      call_id: expect.stringMatching(/^call_[0-9a-f-]{36}$/),
    });
    expect(starts.mock.calls.length - before).toBe(0);
    // There is no task to poll; the usage record is filed under the call id.
    expect(await h.request('GET', `/v1/tasks/${res.json.call_id}`)).toMatchObject({
      status: 404,
      json: notFound,
    });
    const usage = (await h.request('GET', '/v1/usage')).json.records[0];
    expect(usage).toMatchObject({
      task_id: res.json.call_id,
      skill: 'echo.shout',
      billed_to: { type: 'owner', id: 'owner_a' },
      request_items: 2,
      credits: 2,
      queued: false,
    });
    // The spy does see the workflows the API does start: a long-running call is one.
    const slow = await h.request('POST', '/v1/apps/echo/skills/slow_echo', { requests: [{ text: 'x' }] });
    expect(slow.status).toBe(202);
    expect(startedIds().slice(before)).toEqual([slow.json.task_id]);
    await h.waitForTask(slow.json.task_id, (t) => t.status === 'completed');
  });

  it('resolves hyphenated ids and answers unknown or unloadable skills with 404', async () => {
    const hyphen = await h.request('POST', '/v1/apps/echo/skills/slow-echo', { requests: [{ text: 'x' }] });
    expect(hyphen.status).toBe(202);
    for (const url of [
      '/v1/apps/echo/skills/missing-impl',
      '/v1/apps/echo/skills/nope',
      '/v1/apps/nope/skills/shout',
    ]) {
      const res = await h.request('POST', url, { requests: [{ text: 'x' }] });
      expect(res.status, url).toBe(404);
      expect(res.json.error.code).toBe('SKILL_NOT_FOUND');
    }
  });

  it('rejects a bad body with every failing path', async () => {
    const res = await h.request('POST', '/v1/apps/echo/skills/shout', {
      requests: [{ text: '' }, { text: 'ok', extra: 1 }],
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('INVALID_PARAMETER');
    // An unknown field is named by its own path, never quoted in a message (one mapping for the
    // HTTP edge and the activity boundary: issuesFromZod).
    expect(res.json.error).toEqual({
      code: 'INVALID_PARAMETER',
      message: 'Invalid body at requests[0].text: Too small: expected string to have >=1 characters',
      details: {
        issues: [
          {
            path: 'requests[0].text',
            message: 'Too small: expected string to have >=1 characters',
            location: 'body',
          },
          { path: 'requests[1].extra', message: 'Unknown field.', location: 'body' },
        ],
      },
    });
    const six = await h.request('POST', '/v1/apps/echo/skills/shout', {
      requests: Array.from({ length: 6 }, () => ({ text: 'x' })),
    });
    expect(six.json.error.details.issues[0].path).toBe('requests');
  });

  it('enforces key scopes: a key scoped to another app gets 403', async () => {
    const { token } = await createKey(h.api.deps.store, {
      name: 'design only',
      scopes: ['app:design'],
      ownerId: 'owner_a',
    });
    const res = await h.request(
      'POST',
      '/v1/apps/echo/skills/shout',
      { requests: [{ text: 'x' }] },
      undefined,
      token,
    );
    expect(res.status).toBe(403);
    expect(res.json.error).toEqual({
      code: 'FORBIDDEN',
      message: 'The API key is not scoped to echo.shout.',
      details: { required_scope: ['app:echo', 'skill:echo.shout'] },
    });
    const { token: skillToken } = await createKey(h.api.deps.store, {
      name: 'one skill',
      scopes: ['skill:echo.shout'],
      ownerId: 'owner_a',
    });
    expect(
      (
        await h.request(
          'POST',
          '/v1/apps/echo/skills/shout',
          { requests: [{ text: 'x' }] },
          undefined,
          skillToken,
        )
      ).status,
    ).toBe(200);
  });

  it('checks team membership and spending role for team_id', async () => {
    const db = h.api.deps.store.db;
    await db.insertInto('teams').values({ id: 'team_1', name: 'One' }).execute();
    await db
      .insertInto('team_members')
      .values([
        { team_id: 'team_1', owner_id: 'owner_a', role: 'member', can_spend: true },
        { team_id: 'team_1', owner_id: 'owner_b', role: 'viewer', can_spend: false },
      ])
      .execute();
    const body = { requests: [{ text: 'x' }, { text: 'y' }] };
    const teamCall = await h.request('POST', '/v1/apps/echo/skills/shout?team_id=team_1', body);
    expect(teamCall.status).toBe(200);
    // The call runs and is charged for the team, not the caller.
    const teamUsage = await h.request('GET', '/v1/usage?team_id=team_1');
    expect(teamUsage.status).toBe(200);
    expect(teamUsage.json.records).toEqual([
      {
        id: expect.stringMatching(/^use_[0-9a-f]{20}$/),
        task_id: teamCall.json.call_id,
        skill: 'echo.shout',
        key_id: expect.stringMatching(/^k[0-9a-f]{16}$/),
        owner_id: 'owner_a',
        billed_to: { type: 'team', id: 'team_1' },
        request_items: 2,
        credits: 2,
        queued: false,
        decision: { input_tokens: 0, cost_usd: 0 },
        created_at: expect.any(String),
      },
    ]);
    const own = await h.request('GET', '/v1/usage');
    expect(own.json.records.map((r: { task_id: string }) => r.task_id)).not.toContain(teamCall.json.call_id);
    const ownCall = await h.request('POST', '/v1/apps/echo/skills/shout', { requests: [{ text: 'z' }] });
    expect((await h.request('GET', '/v1/usage')).json.records[0]).toMatchObject({
      task_id: ownCall.json.call_id,
      billed_to: { type: 'owner', id: 'owner_a' },
      request_items: 1,
      credits: 1,
    });
    // A team's long-running call is a task: the task says who pays.
    const teamTask = await h.request('POST', '/v1/apps/echo/skills/slow_echo?team_id=team_1', body);
    expect(teamTask.status).toBe(202);
    const task = await h.request('GET', `/v1/tasks/${teamTask.json.task_id}`);
    expect(task.json.billing).toEqual({
      billed_to: { type: 'team', id: 'team_1' },
      request_items: 2,
      credits: 4,
    });
    await h.waitForTask(teamTask.json.task_id, (t) => t.status === 'completed');
    // A team the caller is not in is 404, for its usage as for spending: it looks missing.
    const noTeam = { error: { code: 'NOT_FOUND', message: 'No team with this id.', details: {} } };
    const notMember = await h.request('GET', '/v1/usage?team_id=team_2');
    expect([notMember.status, notMember.json]).toEqual([404, noTeam]);
    const viewer = await h.request(
      'POST',
      '/v1/apps/echo/skills/shout?team_id=team_1',
      body,
      undefined,
      h.otherToken,
    );
    expect(viewer.json.error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'This team role may not spend credits.',
    });
    const stranger = await h.request('POST', '/v1/apps/echo/skills/shout?team_id=team_2', body);
    expect([stranger.status, stranger.json]).toEqual([404, noTeam]);
    const missing = await h.request('POST', '/v1/apps/echo/skills/shout?team_id=team_none', body);
    expect([missing.status, missing.json]).toEqual([404, noTeam]);
  });

  it('answers a long-running skill with task_id and embed_id, and stores the sealed result', async () => {
    const res = await h.request('POST', '/v1/apps/echo/skills/slow_echo', { requests: [{ text: 'later' }] });
    expect(res.status).toBe(202);
    expect(res.json).toEqual({
      task_id: expect.stringMatching(/^task_/),
      embed_id: expect.stringMatching(/^emb_[0-9a-f]{24}$/),
    });
    await h.waitForTask(res.json.task_id, (t) => t.status === 'completed');
    const embed = await h.api.deps.store.db
      .selectFrom('embeds')
      .selectAll()
      .where('id', '=', res.json.embed_id)
      .executeTakeFirstOrThrow();
    expect(embed).toMatchObject({ status: 'ready', owner_id: 'owner_a', skill: 'echo.slow_echo' });
    expect(embed.content_sealed).not.toContain('LATER');
    expect(openJson(TEST_KEYRING, embed.content_sealed!, sealedCell.embed(embed.id, embed.owner_id))).toEqual(
      {
        output: { results: [{ text: 'LATER' }] },
        previews: [{ title: 'LATER' }],
      },
    );
  });

  it('marks the embed of a failed long-running call as failed, not pending forever', async () => {
    const res = await h.request('POST', '/v1/apps/echo/skills/slow_echo', {
      requests: [{ text: 'x', fail: 'INVALID_PARAMETER' }],
    });
    expect(res.status).toBe(202);
    await h.waitForTask(res.json.task_id, (t) => t.status === 'failed');
    const file = await h.request('GET', `/v1/embeds/${res.json.embed_id}/file?format=full`);
    expect(file.status).toBe(409);
    expect(file.json.error).toEqual({
      code: 'EMBED_FAILED',
      message: 'The task that produces this embed failed; there is no file. See the task for its error.',
      details: { embed_id: res.json.embed_id, task_id: res.json.task_id, status: 'failed' },
    });
  });

  it('a slow quick call is still answered inline within its policy deadline', async () => {
    const before = starts.mock.calls.length;
    const res = await h.request('POST', '/v1/apps/echo/skills/shout', {
      requests: [{ text: 'slow', wait_ms: 1500 }],
    });
    expect([res.status, res.json.results]).toEqual([200, [{ text: 'SLOW' }]]);
    expect(starts.mock.calls.length - before).toBe(0);
  });

  it('a quick call past its policy deadline (local: 10 s) is DEADLINE_EXCEEDED, the same body as the anonymous route', async () => {
    const body = { requests: [{ text: 'slow', wait_ms: 12_000 }] };
    const started = Date.now();
    const [res, anonymous] = await Promise.all([
      h.request('POST', '/v1/apps/echo/skills/shout', body),
      h.api.app.inject({
        method: 'POST',
        url: '/v1/anonymous/apps/echo/skills/shout',
        headers: { 'x-skillflow-anonymous-id': 'guest-deadline-0001', 'content-type': 'application/json' },
        payload: body,
      }),
    ]);
    const elapsed = Date.now() - started;
    const deadline = {
      error: {
        code: 'DEADLINE_EXCEEDED',
        message: 'The operation did not finish within its deadline.',
        details: {},
      },
    };
    expect([res.status, res.json]).toEqual([503, deadline]);
    expect([anonymous.statusCode, anonymous.json()]).toEqual([503, deadline]);
    expect(elapsed).toBeGreaterThanOrEqual(10_000);
    expect(elapsed).toBeLessThan(11_900);
  }, 30_000);

  it('maps a non-retryable skill failure to its catalogue error at once', async () => {
    const res = await h.request('POST', '/v1/apps/echo/skills/shout', {
      requests: [{ text: 'x', fail: 'INVALID_PARAMETER' }],
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toEqual({
      code: 'INVALID_PARAMETER',
      message: 'A request parameter is invalid.',
      details: {},
    });
  });

  it('a skill’s upstream failure is the final answer of the call: run once, in-process, and charged', async () => {
    const before = starts.mock.calls.length;
    const res = await h.request('POST', '/v1/apps/echo/skills/shout', {
      requests: [{ text: 'x', fail: 'UPSTREAM_MALFORMED' }],
    });
    expect(res.status).toBe(503);
    expect(res.json).toEqual({
      error: {
        code: 'UPSTREAM_MALFORMED',
        message: 'An upstream provider sent a malformed answer.',
        details: {},
      },
    });
    expect(starts.mock.calls.length - before).toBe(0);
    // Read through the API: the inline call's record is written just after the answer.
    const last = (await h.request('GET', '/v1/usage?limit=1')).json.records[0];
    expect(last).toMatchObject({
      task_id: expect.stringMatching(/^call_/),
      skill: 'echo.shout',
      request_items: 1,
      queued: false,
    });
  });
});
