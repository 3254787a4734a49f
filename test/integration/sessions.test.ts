/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field. */
/**
 * First-party workspace sessions over real HTTP on loopback: sign-in with a key and with a
 * one-time link, the cookie's attributes, CSRF on state-changing requests, listing and
 * revocation (of the session and of its key), the stored rows (hashes only), rotation and
 * expiry against an injected clock, and free encyclopedia route requests over a session.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS } from '../../activities/apps/index.js';
import { SessionsService } from '../../api/services/sessions.js';
import { createKey, verifyToken } from '../../lib/keys.js';
import { revokeApiKey } from '../../lib/store/owners/api-keys.js';
import {
  startEncyclopediaSimulator,
  type EncyclopediaSimulator,
} from '../../simulators/encyclopedia/server.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { TEST_KEYRING } from '../helpers/fixtures.js';

const CLEARED = [
  'skillflow_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0',
  'skillflow_signed_in=; Path=/; SameSite=Strict; Max-Age=0',
];
const COOKIE =
  /^skillflow_session=(ses_[A-Za-z0-9_-]{43}); Path=\/; HttpOnly; SameSite=Strict; Max-Age=(\d+)$/;

describe('workspace sessions over HTTP', () => {
  let h: EngineHarness;
  let sim: EncyclopediaSimulator;
  let base: string;

  beforeAll(async () => {
    sim = await startEncyclopediaSimulator();
    h = await startEngine({
      apps: APPS,
      config: {
        ENCYCLOPEDIA_URL: sim.urlTemplate,
        ENCYCLOPEDIA_IMAGE_HOSTS: [sim.imageHost],
        ENCYCLOPEDIA_USER_AGENT: 'skillflow-test/1 (ops@skillflow.test)',
        DECISION_URL: undefined,
      },
    });
    await h.api.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(h.api.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await h?.close();
    await sim?.close();
  });

  async function call(
    method: string,
    path: string,
    opts: { token?: string; cookie?: string; csrf?: string; body?: unknown } = {},
  ): Promise<{ status: number; json: any; setCookie: string[]; body: string }> {
    const headers: Record<string, string> = { 'user-agent': 'Mozilla/5.0 (X11; Linux) test-browser' };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.cookie) headers.cookie = `theme=dark; skillflow_session=${opts.cookie}`;
    if (opts.csrf) headers['x-csrf-token'] = opts.csrf;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(base + path, {
      method,
      headers,
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    });
    const body = await res.text();
    return {
      status: res.status,
      json: body ? JSON.parse(body) : undefined,
      setCookie: res.headers.getSetCookie(),
      body,
    };
  }

  async function signIn(token = h.token) {
    const res = await call('POST', '/v1/sessions', { token });
    expect(res.status).toBe(201);
    expect(res.setCookie).toHaveLength(2);
    const m = COOKIE.exec(res.setCookie[0] ?? '');
    expect(m).not.toBeNull();
    expect(res.setCookie[1]).toBe('skillflow_signed_in=1; Path=/; SameSite=Strict; Max-Age=604800');
    return { res, cookie: m![1]!, maxAge: Number(m![2]), csrf: res.json.csrf_token as string };
  }

  it('signs in with a key: an HttpOnly SameSite=Strict cookie, the CSRF token, and the session acts as the key', async () => {
    const { res, cookie, maxAge, csrf } = await signIn();
    expect(maxAge).toBe(604_800);
    expect(res.json).toEqual({
      session: {
        session_id: expect.stringMatching(/^ses[0-9a-f]{16}$/),
        key_id: expect.stringMatching(/^k[0-9a-f]{16}$/),
        created_at: expect.any(String),
        last_used_at: expect.any(String),
        expires_at: expect.any(String),
        user_agent: 'Mozilla/5.0 (X11; Linux) test-browser',
        current: true,
      },
      csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    // 12 hours idle, not past the maximum age.
    expect(Date.parse(res.json.session.expires_at) - Date.parse(res.json.session.created_at)).toBe(
      43_200_000,
    );

    const current = await call('GET', '/v1/sessions/current', { cookie });
    expect(current.status).toBe(200);
    expect(current.json).toEqual({ session: res.json.session, csrf_token: csrf, scopes: ['*'] });

    // Reads need only the cookie.
    expect((await call('GET', '/v1/keys', { cookie })).status).toBe(200);
    // A state change without the CSRF token is refused, with a wrong one too; with it, it works.
    const forbidden = {
      error: {
        code: 'FORBIDDEN',
        message: 'A request over a session must carry its CSRF token in the X-CSRF-Token header.',
        details: { header: 'X-CSRF-Token' },
      },
    };
    const body = { name: 'from-session', scopes: ['workflows'] };
    expect(await call('POST', '/v1/keys', { cookie, body }).then((r) => [r.status, r.json])).toEqual([
      403,
      forbidden,
    ]);
    expect(
      await call('POST', '/v1/keys', { cookie, body, csrf: csrf.slice(1) + 'A' }).then((r) => [
        r.status,
        r.json,
      ]),
    ).toEqual([403, forbidden]);
    const made = await call('POST', '/v1/keys', { cookie, body, csrf });
    expect(made.status).toBe(201);
    expect(made.json.scopes).toEqual(['workflows']);

    // A session cannot start another session or make sign-in links.
    expect(await call('POST', '/v1/sessions', { cookie, csrf }).then((r) => r.json)).toEqual({
      error: {
        code: 'FORBIDDEN',
        message: 'Sign in with an API key: a session cannot start another one.',
        details: {},
      },
    });
  });

  it('lists the live sessions (keys scope), ends one, and signs out; an ended session gets 401 and a cleared cookie', async () => {
    const a = await signIn();
    const b = await signIn();
    const listed = await call('GET', '/v1/sessions', { cookie: a.cookie });
    expect(listed.status).toBe(200);
    const ids = listed.json.sessions.map((s: any) => [s.session_id, s.current]);
    expect(ids).toContainEqual([a.res.json.session.session_id, true]);
    expect(ids).toContainEqual([b.res.json.session.session_id, false]);
    // Another owner sees none of them and cannot end them.
    const foreign = await call('GET', '/v1/sessions', { token: h.otherToken });
    expect(foreign.json.sessions.map((s: any) => s.session_id)).not.toContain(a.res.json.session.session_id);
    expect(
      (await call('DELETE', `/v1/sessions/${b.res.json.session.session_id}`, { token: h.otherToken })).json,
    ).toEqual({ error: { code: 'NOT_FOUND', message: 'No active session with this id.', details: {} } });

    expect(
      (await call('DELETE', `/v1/sessions/${b.res.json.session.session_id}`, { token: h.token })).status,
    ).toBe(204);
    const ended = await call('GET', '/v1/keys', { cookie: b.cookie });
    expect(ended.status).toBe(401);
    expect(ended.json).toEqual({
      error: { code: 'UNAUTHENTICATED', message: 'The session has ended; sign in again.', details: {} },
    });
    expect(ended.setCookie).toEqual(CLEARED);

    // Sign-out is a state change: it needs the CSRF token.
    expect((await call('DELETE', '/v1/sessions/current', { cookie: a.cookie })).status).toBe(403);
    const out = await call('DELETE', '/v1/sessions/current', { cookie: a.cookie, csrf: a.csrf });
    expect(out.status).toBe(204);
    expect(out.setCookie).toEqual(CLEARED);
    expect((await call('GET', '/v1/sessions/current', { cookie: a.cookie })).status).toBe(401);
    // With a key there is no current session.
    expect((await call('GET', '/v1/sessions/current', { token: h.token })).json).toEqual({
      error: { code: 'NOT_FOUND', message: 'This request did not come over a session.', details: {} },
    });
  });

  it('revoking the key that signed a session in ends the session at once', async () => {
    const key = await createKey(h.api.deps.store, { name: 'ws', scopes: ['*'], ownerId: 'owner_a' });
    const { cookie, res: signedIn } = await signIn(key.token);
    expect((await call('GET', '/v1/keys', { cookie })).status).toBe(200);
    const link = await call('POST', '/v1/sessions/sign-in-links', { token: key.token });
    await revokeApiKey(h.api.deps.store, 'owner_a', key.id);
    expect((await call('GET', '/v1/keys', { cookie })).status).toBe(401);
    // A link made before the revocation signs nobody in, and leaves no live session behind.
    const code = link.json.url.split('#sign-in/')[1];
    const spent = await call('POST', '/v1/sessions/exchange', { body: { code } });
    expect([spent.status, spent.json.error.code]).toEqual([401, 'UNAUTHENTICATED']);
    expect(spent.setCookie).toEqual([]);
    const live = await h.api.deps.store.db
      .selectFrom('web_sessions')
      .select('id')
      .where('key_id', '=', key.id)
      .where('id', '!=', signedIn.json.session.session_id)
      .where('revoked_at', 'is', null)
      .execute();
    expect(live).toEqual([]);
  });

  it('a one-time sign-in link signs in once; a used, unknown or malformed code is refused', async () => {
    const link = await call('POST', '/v1/sessions/sign-in-links', { token: h.token });
    expect(link.status).toBe(201);
    expect(link.json).toEqual({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/#sign-in\/sic_[A-Za-z0-9_-]{43}$/),
      expires_at: expect.any(String),
    });
    const code = link.json.url.split('#sign-in/')[1];
    const first = await call('POST', '/v1/sessions/exchange', { body: { code } });
    expect(first.status).toBe(201);
    const cookie = COOKIE.exec(first.setCookie[0] ?? '')![1]!;
    expect((await call('GET', '/v1/sessions/current', { cookie })).json.scopes).toEqual(['*']);
    const refused = {
      error: {
        code: 'UNAUTHENTICATED',
        message: 'This sign-in link is unknown, used or expired; ask for a new one.',
        details: {},
      },
    };
    expect(
      await call('POST', '/v1/sessions/exchange', { body: { code } }).then((r) => [r.status, r.json]),
    ).toEqual([401, refused]);
    const unknown = `sic_${'A'.repeat(43)}`;
    expect((await call('POST', '/v1/sessions/exchange', { body: { code: unknown } })).json).toEqual(refused);
    const bad = await call('POST', '/v1/sessions/exchange', { body: { code: 'nope' } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('INVALID_PARAMETER');
    expect(bad.json.error.details.issues).toEqual([
      expect.objectContaining({ path: 'code', message: 'must be a sign-in code (sic_...)' }),
    ]);
    expect(bad.body).not.toContain('nope');
  });

  it('stores hashes only: no session token, sign-in code or CSRF token in a row', async () => {
    const { cookie, csrf } = await signIn();
    const link = await call('POST', '/v1/sessions/sign-in-links', { token: h.token });
    const code = link.json.url.split('#sign-in/')[1];
    const rows = JSON.stringify(await h.api.deps.store.db.selectFrom('web_sessions').selectAll().execute());
    expect(rows).not.toContain(cookie);
    expect(rows).not.toContain(cookie.slice(4));
    expect(rows).not.toContain(code.slice(4));
    expect(rows).not.toContain(csrf);
    expect(rows).not.toContain(h.token);
  });

  it('encyclopedia requests (its routes and its skills) are free over a session and cost one credit per cache miss with a key', async () => {
    const credits = async (keyId: string) =>
      (
        await h.api.deps.store.db
          .selectFrom('usage_records')
          .select(['credits'])
          .where('task_id', 'like', 'enc_%')
          .where('key_id', '=', keyId)
          .orderBy('created_at', 'asc')
          .execute()
      ).map((r) => Number(r.credits));
    const key = await createKey(h.api.deps.store, { name: 'enc', scopes: ['*'], ownerId: 'owner_enc' });
    const { cookie } = await signIn(key.token);
    const overSession = await call('GET', '/v1/encyclopedia/search?query=Mercury&limit=2', { cookie });
    expect(overSession.status).toBe(200);
    expect(overSession.json.cached).toBe(false);
    const overKey = await call('GET', '/v1/encyclopedia/search?query=Alan%20Turing&limit=2', {
      token: key.token,
    });
    expect(overKey.status).toBe(200);
    expect(overKey.json.cached).toBe(false);
    expect(await credits(key.id)).toEqual([0, 1]);

    // The skill route the workspace's forms call: free over the session too, one credit per miss with the key.
    // (GET /v1/usage writes this process's batched records first.)
    const summaries = async () =>
      (await call('GET', '/v1/usage?limit=20', { token: key.token })).json.records
        .filter((r: { skill: string }) => r.skill === 'encyclopedia.get_summary')
        .reverse()
        .map((r: { credits: number; request_items: number }) => [r.credits, r.request_items]);
    const { cookie: skillCookie, csrf } = await signIn(key.token);
    const skill = '/v1/apps/encyclopedia/skills/get_summary';
    const viaSession = await call('POST', skill, {
      cookie: skillCookie,
      csrf,
      body: { requests: [{ title: 'Jupiter' }, { title: 'Moon' }] },
    });
    expect(viaSession.status, JSON.stringify(viaSession.json)).toBe(200);
    // Both asked the encyclopedia (no cache hit): the session's call is free by its own rule.
    expect(viaSession.json.results.map((r: { cached: boolean }) => r.cached)).toEqual([false, false]);
    const viaKey = await call('POST', skill, {
      token: key.token,
      body: { requests: [{ title: 'Paris' }, { title: 'Berlin' }] },
    });
    expect(viaKey.status, JSON.stringify(viaKey.json)).toBe(200);
    expect(viaKey.json.results.map((r: { cached: boolean }) => r.cached)).toEqual([false, false]);
    expect(await summaries()).toEqual([
      [0, 2],
      [2, 2],
    ]);
  });

  it('rotates the cookie token after SESSION_ROTATE_S (the old one works for 60 s), ends after idle time and maximum age', async () => {
    let now = new Date('2026-11-27T10:00:00Z');
    const config = {
      SESSION_IDLE_TIMEOUT_S: 3600,
      SESSION_MAX_AGE_S: 7200,
      SESSION_ROTATE_S: 900,
      SESSION_COOKIE_SECURE: 'auto' as const,
      SIGN_IN_LINK_TTL_S: 600,
    };
    const sessions = new SessionsService(h.api.deps.store, TEST_KEYRING, config, 'production', () => now);
    const principal = (await verifyToken(h.api.deps.store, h.token))!;
    const signed = await sessions.signIn(principal, null);
    expect(signed.cookies[1]).toBe(
      '__Host-skillflow_signed_in=1; Path=/; SameSite=Strict; Max-Age=7200; Secure',
    );
    expect(signed.cookies[0]).toMatch(
      /^__Host-skillflow_session=ses_[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=7200; Secure$/,
    );
    const first = /=(ses_[^;]+)/.exec(signed.cookies[0]!)![1]!;
    const at = (iso: string) => (now = new Date(iso));

    at('2026-11-27T10:10:00Z');
    expect(await sessions.resume(first)).toMatchObject({ principal: { sessionId: signed.session.id } });
    expect((await sessions.resume(first))?.cookie).toBeUndefined();

    at('2026-11-27T10:16:00Z');
    const rotated = await sessions.resume(first);
    expect(rotated?.cookie).toMatch(/Max-Age=6240; Secure$/);
    const second = /=(ses_[^;]+)/.exec(rotated!.cookie!)![1]!;
    expect(second).not.toBe(first);
    // The replaced token works inside the grace and is not rotated again; then it is refused.
    at('2026-11-27T10:16:59Z');
    expect((await sessions.resume(first))?.cookie).toBeUndefined();
    at('2026-11-27T10:17:01Z');
    expect(await sessions.resume(first)).toBeUndefined();
    expect(await sessions.resume(second)).toBeDefined();

    // Idle for more than an hour: ended.
    at('2026-11-27T11:18:00Z');
    expect(await sessions.resume(second)).toBeUndefined();

    // Used every 50 minutes, it still ends at the maximum age.
    at('2026-11-27T12:00:00Z');
    const again = await sessions.signIn(principal, null);
    let token = /=(ses_[^;]+)/.exec(again.cookies[0]!)![1]!;
    for (const t of ['12:50', '13:40']) {
      at(`2026-11-27T${t}:00Z`);
      const r = await sessions.resume(token);
      expect(r).toBeDefined();
      if (r?.cookie) token = /=(ses_[^;]+)/.exec(r.cookie)![1]!;
    }
    at('2026-11-27T14:00:01Z');
    expect(await sessions.resume(token)).toBeUndefined();
  });
});
