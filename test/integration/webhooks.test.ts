/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * Webhook triggers over real HTTP on loopback, with a real Temporal server and a worker: a
 * definition with `start_when.webhook` gets a hook URL and a signing secret shown once; a signed
 * JSON request starts one run with the body's declared fields as its inputs; a missing, wrong,
 * stale or replayed signature and an unknown hook are one 401 and start nothing; oversize,
 * non-JSON and bad inputs are refused like a manual run's; Idempotency-Key replays; rotation,
 * trigger changes and the per-hook rate limit behave as documented; the store holds no secret
 * in plaintext.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../lib/keys.js';
import { signatureHeader } from '../../lib/webhooks/hook-signature.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

const HOOK_LIMIT = 30;

const WEBHOOK = `title: Order webhook
start_when:
  webhook:
    inputs:
      order_id: { type: string, required: true }
      amount: { type: number }
steps:
  - id: say
    use_app_skill: echo.shout
    input: { requests: [{ text: 'order {{inputs.order_id}}' }] }
`;

const MANUAL = WEBHOOK.replace('  webhook:\n', '  manual:\n');

const UNSIGNED = {
  error: {
    code: 'HOOK_SIGNATURE_INVALID',
    message:
      'The webhook request is not accepted: the hook does not exist, or its X-Skillflow-Signature is missing, wrong, more than 5 minutes from now, or already used.',
    details: {},
  },
};

describe('webhook triggers', () => {
  let h: EngineHarness;
  let base: string;
  beforeAll(async () => {
    h = await startEngine({ config: { HOOK_RATE_LIMIT_PER_MINUTE: HOOK_LIMIT } });
    base = await h.api.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await h?.close();
  });

  async function webhookDefinition(): Promise<any> {
    const res = await h.request('POST', '/v1/workflows', WEBHOOK, 'application/yaml');
    expect(res.status, res.body).toBe(201);
    return res.json;
  }

  /** POSTs to a hook URL (rewritten to the listening address) over real HTTP. */
  async function post(
    url: string,
    body: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; json: any; headers: Headers }> {
    const path = new URL(url).pathname;
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, json, headers: res.headers };
  }

  const signed = (hook: { url: string }, secret: string, body: string, extra: Record<string, string> = {}) =>
    post(hook.url, body, { 'x-skillflow-signature': signatureHeader(secret, body), ...extra });

  /** The definition's run count once it reaches `expected` (visibility trails a start), else the last seen. */
  async function runCount(id: string, expected: number): Promise<number> {
    let n = -1;
    for (let i = 0; i < 50; i += 1) {
      n = (await h.request('GET', `/v1/workflows/${id}/runs`)).json.runs.length;
      if (n === expected) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return n;
  }

  it('shows the URL and the secret once, and a signed request starts a run with the declared fields', async () => {
    const def = await webhookDefinition();
    expect(def.trigger_type).toBe('webhook');
    expect(def.hook).toEqual({
      id: expect.stringMatching(/^hk_[0-9a-f]{32}$/),
      url: expect.stringMatching(/^http:\/\/.+\/v1\/hooks\/hk_[0-9a-f]{32}$/),
      rotated_at: expect.any(String),
      previous_secret_expires_at: null,
      signing_secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
    });
    expect(def.hook.url.endsWith(`/v1/hooks/${def.hook.id}`)).toBe(true);
    expect(def.inputs).toEqual({
      order_id: { type: 'string', required: true },
      amount: { type: 'number', required: false },
    });
    // Never shown again.
    const read = await h.request('GET', `/v1/workflows/${def.id}`);
    expect(read.json.hook).toEqual({ ...def.hook, signing_secret: undefined });
    expect(Object.hasOwn(read.json.hook, 'signing_secret')).toBe(false);

    const body = JSON.stringify({ order_id: 'o-7', amount: 3, extra: { nested: 'ignored' } });
    const res = await signed(def.hook, def.hook.signing_secret, body);
    expect(res.status, JSON.stringify(res.json)).toBe(202);
    expect(res.json).toEqual({
      task_id: expect.stringMatching(/^task_/),
      links: { task: `/v1/tasks/${res.json.task_id}` },
    });
    const done = await h.waitForTask(res.json.task_id, (t) => ['completed', 'failed'].includes(t.status));
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect(done.result.outputs.say.results).toEqual(['ORDER O-7']);
    const runs = (await h.request('GET', `/v1/workflows/${def.id}/runs`)).json.runs;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ task_id: res.json.task_id, trigger: 'webhook' });

    // The store holds the secret only sealed.
    const rows = await h.api.deps.store.db.selectFrom('webhooks').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(def.hook.signing_secret);
    expect(rows.find((r) => r.definition_id === def.id)).toMatchObject({
      hook_id: def.hook.id,
      owner_id: 'owner_a',
    });
  });

  it('refuses a missing, malformed, wrong, stale or replayed signature and an unknown hook with one 401', async () => {
    const def = await webhookDefinition();
    const secret = def.hook.signing_secret as string;
    const body = JSON.stringify({ order_id: 'o-1' });
    const now = Math.floor(Date.now() / 1000);
    const otherSecret = 'whsec_' + 'A'.repeat(43);
    const cases: Array<Record<string, string>> = [
      {},
      { 'x-skillflow-signature': 'nonsense' },
      { 'x-skillflow-signature': `t=${now}` },
      { 'x-skillflow-signature': signatureHeader(otherSecret, body) },
      // Signed over another body.
      { 'x-skillflow-signature': signatureHeader(secret, JSON.stringify({ order_id: 'o-2' })) },
      { 'x-skillflow-signature': signatureHeader(secret, body, now - 320) },
      { 'x-skillflow-signature': signatureHeader(secret, body, now + 320) },
    ];
    for (const headers of cases) {
      const res = await post(def.hook.url, body, headers);
      expect([res.status, res.json], JSON.stringify(headers)).toEqual([401, UNSIGNED]);
    }
    // Just inside the tolerance: accepted, once.
    const header = signatureHeader(secret, body, now - 290);
    const first = await post(def.hook.url, body, { 'x-skillflow-signature': header });
    expect(first.status, JSON.stringify(first.json)).toBe(202);
    const replay = await post(def.hook.url, body, { 'x-skillflow-signature': header });
    expect([replay.status, replay.json]).toEqual([401, UNSIGNED]);
    // An unknown hook id of the right form, and one of another form.
    const unknown = def.hook.url.replace(/hk_[0-9a-f]{32}$/, `hk_${'0'.repeat(32)}`);
    expect(
      await post(unknown, body, { 'x-skillflow-signature': signatureHeader(secret, body) }),
    ).toMatchObject({
      status: 401,
      json: UNSIGNED,
    });
    expect(await post(def.hook.url.replace(/hk_.*$/, 'nothing'), body, {})).toMatchObject({
      status: 401,
      json: UNSIGNED,
    });
    expect(await runCount(def.id, 1)).toBe(1);
  });

  it('refuses an oversize, non-JSON or ill-typed body like a manual run, starting nothing', async () => {
    const def = await webhookDefinition();
    const secret = def.hook.signing_secret as string;
    const big = JSON.stringify({ order_id: 'o', pad: 'x'.repeat(256 * 1024) });
    const tooBig = await signed(def.hook, secret, big);
    expect([tooBig.status, tooBig.json]).toEqual([
      413,
      {
        error: {
          code: 'PAYLOAD_TOO_LARGE',
          message: 'The request body is larger than the limit of 256 KiB (262144 bytes).',
          details: { limit_bytes: 262144 },
        },
      },
    ]);
    const text = await post(def.hook.url, 'order', {
      'content-type': 'text/plain',
      'x-skillflow-signature': signatureHeader(secret, 'order'),
    });
    expect([text.status, text.json.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const notJson = await signed(def.hook, secret, '{"order_id": ');
    expect([notJson.status, notJson.json]).toEqual([
      400,
      {
        error: { code: 'INVALID_BODY', message: 'The request body is not valid JSON or YAML.', details: {} },
      },
    ]);
    const list = await signed(def.hook, secret, '[1]');
    expect([list.status, list.json]).toEqual([
      400,
      {
        error: {
          code: 'INVALID_PARAMETER',
          message: 'Invalid body at (root): must be a JSON object',
          details: { issues: [{ path: '', message: 'must be a JSON object', location: 'body' }] },
        },
      },
    ]);
    const wrongType = await signed(def.hook, secret, JSON.stringify({ order_id: 7, amount: 'lots' }));
    expect([wrongType.status, wrongType.json]).toEqual([
      400,
      {
        error: {
          code: 'INVALID_PARAMETER',
          message: 'Invalid value at body.order_id: must be of type string',
          details: {
            issues: [
              { path: 'body.order_id', message: 'must be of type string' },
              { path: 'body.amount', message: 'must be of type number' },
            ],
          },
        },
      },
    ]);
    const missing = await signed(def.hook, secret, JSON.stringify({ amount: 1 }));
    expect([missing.status, missing.json.error.details.issues]).toEqual([
      400,
      [{ path: 'body.order_id', message: 'is required' }],
    ]);
    const largeInput = await signed(def.hook, secret, JSON.stringify({ order_id: 'x'.repeat(200 * 1024) }));
    expect([largeInput.status, largeInput.json.error.code]).toEqual([413, 'RUN_INPUTS_TOO_LARGE']);
    expect(await runCount(def.id, 0)).toBe(0);
  });

  it('replays the first answer to a delivery repeated with the same Idempotency-Key', async () => {
    const def = await webhookDefinition();
    const secret = def.hook.signing_secret as string;
    const body = JSON.stringify({ order_id: 'o-9' });
    const key = { 'idempotency-key': 'delivery-1' };
    const first = await signed(def.hook, secret, body, key);
    expect(first.status, JSON.stringify(first.json)).toBe(202);
    // A fresh signature (the sender's retry signs again), the same key and body.
    await new Promise((r) => setTimeout(r, 1100));
    const again = await signed(def.hook, secret, body, key);
    expect([again.status, again.json, again.headers.get('idempotent-replayed')]).toEqual([
      202,
      first.json,
      'true',
    ]);
    const other = await signed(def.hook, secret, JSON.stringify({ order_id: 'o-10' }), key);
    expect([other.status, other.json.error.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await runCount(def.id, 1)).toBe(1);
  });

  it('rotates the secret (optionally keeping the old one a while), with the scopes a save needs', async () => {
    const def = await webhookDefinition();
    const old = def.hook.signing_secret as string;
    const body = JSON.stringify({ order_id: 'o-r' });
    const rotated = await h.request('POST', `/v1/workflows/${def.id}/hook/rotate`);
    expect(rotated.status, rotated.body).toBe(200);
    expect(rotated.json).toEqual({
      id: def.hook.id,
      url: def.hook.url,
      rotated_at: expect.any(String),
      previous_secret_expires_at: null,
      signing_secret: expect.stringMatching(/^whsec_/),
    });
    expect(rotated.json.signing_secret).not.toBe(old);
    expect((await signed(def.hook, old, body)).status).toBe(401);
    expect((await signed(def.hook, rotated.json.signing_secret, body)).status).toBe(202);

    const kept = await h.request('POST', `/v1/workflows/${def.id}/hook/rotate`, {
      keep_previous_seconds: 600,
    });
    expect(kept.status, kept.body).toBe(200);
    const until = Date.parse(kept.json.previous_secret_expires_at);
    expect(until - Date.now()).toBeGreaterThan(590_000);
    expect(until - Date.now()).toBeLessThanOrEqual(600_000);
    expect(
      (await signed(def.hook, rotated.json.signing_secret, JSON.stringify({ order_id: 'p' }))).status,
    ).toBe(202);
    expect((await signed(def.hook, kept.json.signing_secret, JSON.stringify({ order_id: 'q' }))).status).toBe(
      202,
    );
    expect((await signed(def.hook, old, JSON.stringify({ order_id: 'r' }))).status).toBe(401);

    const tooLong = await h.request('POST', `/v1/workflows/${def.id}/hook/rotate`, {
      keep_previous_seconds: 86_401,
    });
    expect([tooLong.status, tooLong.json.error.details.issues[0].path]).toEqual([
      400,
      'keep_previous_seconds',
    ]);
    // A key that may not call the skill may not hold the secret either.
    const { token } = await createKey(h.api.deps.store, {
      name: 'narrow',
      scopes: ['workflows'],
      ownerId: 'owner_a',
    });
    const narrow = await h.request(
      'POST',
      `/v1/workflows/${def.id}/hook/rotate`,
      undefined,
      undefined,
      token,
    );
    expect([narrow.status, narrow.json.error.code]).toEqual([403, 'FORBIDDEN']);
    // Another owner's definition is not found.
    const foreign = await h.request(
      'POST',
      `/v1/workflows/${def.id}/hook/rotate`,
      undefined,
      undefined,
      h.otherToken,
    );
    expect([foreign.status, foreign.json.error.code]).toEqual([404, 'NOT_FOUND']);
    const manual = await h.request('POST', '/v1/workflows', MANUAL, 'application/yaml');
    const none = await h.request('POST', `/v1/workflows/${manual.json.id}/hook/rotate`);
    expect([none.status, none.json]).toEqual([
      409,
      {
        error: {
          code: 'CONFLICT',
          message: 'This definition has no webhook trigger; there is no hook to rotate.',
          details: {},
        },
      },
    ]);
  });

  it('keeps the hook across saves, drops it with the trigger and makes a new one when it returns', async () => {
    const def = await webhookDefinition();
    const edited = await h.request(
      'PUT',
      `/v1/workflows/${def.id}`,
      WEBHOOK.replace('Order webhook', 'Orders'),
      'application/yaml',
    );
    expect(edited.status, edited.body).toBe(200);
    expect(edited.json.hook).toEqual({ ...def.hook, signing_secret: undefined });
    expect(Object.hasOwn(edited.json.hook, 'signing_secret')).toBe(false);
    expect((await signed(def.hook, def.hook.signing_secret, JSON.stringify({ order_id: 'a' }))).status).toBe(
      202,
    );

    const manual = await h.request('PUT', `/v1/workflows/${def.id}`, MANUAL, 'application/yaml');
    expect([manual.status, manual.json.hook, manual.json.trigger_type]).toEqual([200, null, 'manual']);
    const gone = await signed(def.hook, def.hook.signing_secret, JSON.stringify({ order_id: 'b' }));
    expect([gone.status, gone.json]).toEqual([401, UNSIGNED]);

    const back = await h.request('PUT', `/v1/workflows/${def.id}`, WEBHOOK, 'application/yaml');
    expect(back.json.hook.id).not.toBe(def.hook.id);
    expect(back.json.hook.signing_secret).toMatch(/^whsec_/);
    expect(
      (await signed(back.json.hook, back.json.hook.signing_secret, JSON.stringify({ order_id: 'c' }))).status,
    ).toBe(202);

    // Deleting the definition deletes its hook.
    expect((await h.request('DELETE', `/v1/workflows/${def.id}`)).status).toBe(204);
    const deleted = await signed(
      back.json.hook,
      back.json.hook.signing_secret,
      JSON.stringify({ order_id: 'd' }),
    );
    expect([deleted.status, deleted.json]).toEqual([401, UNSIGNED]);
  });

  it('limits requests per hook, counting unsigned ones', async () => {
    const def = await webhookDefinition();
    for (let i = 0; i < HOOK_LIMIT; i += 1) expect((await post(def.hook.url, '{}', {})).status).toBe(401);
    const limited = await signed(def.hook, def.hook.signing_secret, JSON.stringify({ order_id: 'z' }));
    expect([limited.status, limited.json.error.code, limited.json.error.details]).toEqual([
      429,
      'RATE_LIMITED',
      {
        limit: HOOK_LIMIT,
        scope: 'webhook per hook',
        window_seconds: 60,
        retry_after_seconds: expect.any(Number),
      },
    ]);
    expect(await runCount(def.id, 0)).toBe(0);
  });
});
