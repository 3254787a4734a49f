import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliver } from '../../activities/platform/chat-delivery.js';
import { openJson } from '../../lib/crypto/sealed-value.js';
import { sealedCell } from '../../lib/store/sealed-columns.js';
import { createKey } from '../../lib/keys.js';
import { revokeApiKey } from '../../lib/store/owners/api-keys.js';
import { webhookPolicy } from '../../lib/net/webhook.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { TEST_KEYRING, TEST_RESOLVE } from '../helpers/fixtures.js';

describe('keys, embeds, chats and workspace results', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await startEngine();
  });
  afterAll(async () => {
    await h?.close();
  });

  describe('keys', () => {
    it('creates a key whose token works once shown, lists keys without secrets, and revokes to 401', async () => {
      const created = await h.request('POST', '/v1/keys', {
        name: 'cli',
        scopes: ['app:echo'],
        tier: 'free',
      });
      expect(created.status).toBe(201);
      expect(created.json).toEqual({
        id: expect.stringMatching(/^k[0-9a-f]{16}$/),
        token: expect.stringMatching(/^sf_k[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/),
        name: 'cli',
        scopes: ['app:echo'],
        tier: 'free',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      const token = created.json.token as string;
      const listed = async () => {
        const res = await h.request('GET', '/v1/keys');
        expect(res.status).toBe(200);
        return { res, mine: res.json.keys.find((k: { id: string }) => k.id === created.json.id) };
      };
      const view = (lastUsed: unknown) => ({
        id: created.json.id,
        name: 'cli',
        scopes: ['app:echo'],
        tier: 'free',
        created_at: created.json.created_at,
        last_used_at: lastUsed,
        revoked_at: null,
      });
      expect((await listed()).mine).toEqual(view(null));
      const before = Date.now();
      expect((await h.request('GET', '/v1/apps/echo', undefined, undefined, token)).status).toBe(200);
      // The use is written in the background, to the minute.
      let { res: list, mine } = await listed();
      for (let i = 0; i < 20 && mine.last_used_at === null; i++) {
        await new Promise((r) => setTimeout(r, 100));
        ({ res: list, mine } = await listed());
      }
      expect(mine).toEqual(view(expect.stringMatching(/^\d{4}-\d\d-\d\dT/)));
      expect(Date.parse(mine.last_used_at) - before).toBeGreaterThanOrEqual(-1000);
      expect(list.body).not.toContain(token);
      expect(list.body).not.toContain('token_hash');
      expect(list.json.keys.every((k: { id: string }) => k.id !== 'other')).toBe(true);
      expect((await h.request('DELETE', `/v1/keys/${created.json.id}`)).status).toBe(204);
      const after = await h.request('GET', '/v1/apps/echo', undefined, undefined, token);
      expect(after.status).toBe(401);
      expect(after.json.error).toEqual({
        code: 'UNAUTHENTICATED',
        message: 'The API token is unknown or revoked.',
        details: {},
      });
      const again = await h.request('DELETE', `/v1/keys/${created.json.id}`);
      expect(again.json).toEqual({
        error: { code: 'NOT_FOUND', message: 'No active key with this id.', details: {} },
      });
      // Another owner's key is not visible or revocable.
      expect(
        (await h.request('DELETE', `/v1/keys/${created.json.id}`, undefined, undefined, h.otherToken)).status,
      ).toBe(404);
    });

    it('caches a verified key: a revocation elsewhere is seen after the TTL, one through this API at once', async () => {
      const created = await h.request('POST', '/v1/keys', { name: 'cached', scopes: ['app:echo'] });
      const token = created.json.token as string;
      const call = async () => (await h.request('GET', '/v1/apps/echo', undefined, undefined, token)).status;
      expect(await call()).toBe(200);
      // Revoked in the store behind this process's back (PGlite: nothing announces it): still
      // honoured from the cache until API_KEY_CACHE_TTL_MS. Replicas on PostgreSQL hear it at
      // once (test/integration/api-replicas.test.ts).
      expect(await revokeApiKey(h.api.deps.store, 'owner_a', created.json.id)).toBe(true);
      expect(await call()).toBe(200);
      // A second key, revoked through the API: refused on its very next request.
      const other = await h.request('POST', '/v1/keys', { name: 'cached2', scopes: ['app:echo'] });
      const otherToken = other.json.token as string;
      expect((await h.request('GET', '/v1/apps/echo', undefined, undefined, otherToken)).status).toBe(200);
      expect((await h.request('DELETE', `/v1/keys/${other.json.id}`)).status).toBe(204);
      const after = await h.request('GET', '/v1/apps/echo', undefined, undefined, otherToken);
      expect([after.status, after.json]).toEqual([
        401,
        {
          error: { code: 'UNAUTHENTICATED', message: 'The API token is unknown or revoked.', details: {} },
        },
      ]);
    });

    it('needs the keys scope and never grants more than the creator holds', async () => {
      const { token: appOnly } = await createKey(h.api.deps.store, {
        name: 'app',
        scopes: ['app:echo'],
        ownerId: 'owner_a',
      });
      const noScope = await h.request('GET', '/v1/keys', undefined, undefined, appOnly);
      expect(noScope.json).toEqual({
        error: {
          code: 'FORBIDDEN',
          message: 'The API key lacks the "keys" scope.',
          details: { required_scope: 'keys' },
        },
      });
      const { token: keysOnly } = await createKey(h.api.deps.store, {
        name: 'k',
        scopes: ['keys', 'app:echo'],
        ownerId: 'owner_a',
        tier: 'standard',
      });
      const widen = await h.request(
        'POST',
        '/v1/keys',
        { name: 'x', scopes: ['*', 'skill:echo.shout', 'workflows'] },
        undefined,
        keysOnly,
      );
      expect(widen.status).toBe(403);
      expect(widen.json.error).toEqual({
        code: 'FORBIDDEN',
        message: 'A key cannot grant scopes its creator lacks.',
        details: { scopes: ['*', 'workflows'] },
      });
      const higher = await h.request(
        'POST',
        '/v1/keys',
        { name: 'x', scopes: ['skill:echo.shout'], tier: 'pro' },
        undefined,
        keysOnly,
      );
      expect(higher.json.error).toEqual({
        code: 'FORBIDDEN',
        message: 'A key cannot have a higher tier than its creator (standard).',
        details: { tier: 'pro' },
      });
      const bad = await h.request('POST', '/v1/keys', { name: '', scopes: ['root'], extra: 1 });
      expect(bad.status).toBe(400);
      expect(bad.json.error.code).toBe('INVALID_PARAMETER');
      expect(bad.json.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual([
        'extra',
        'name',
        'scopes[0]',
      ]);
    });
  });

  describe('embeds', () => {
    it('serves preview, full and original to the owner only; pending is 409; bad format is 400', async () => {
      const started = await h.request('POST', '/v1/apps/echo/skills/slow_echo', {
        requests: [{ text: 'later', wait_ms: 1500 }],
      });
      expect(started.status).toBe(202);
      const embedId = started.json.embed_id as string;
      const pending = await h.api.app.inject({
        method: 'GET',
        url: `/v1/embeds/${embedId}/file?format=full`,
        headers: { authorization: `Bearer ${h.token}` },
      });
      expect(pending.statusCode).toBe(409);
      expect(pending.headers['retry-after']).toBe('2');
      expect(pending.json().error).toEqual({
        code: 'EMBED_PENDING',
        message: 'The embed is not ready yet; poll its task and retry.',
        details: { embed_id: embedId, task_id: started.json.task_id, status: 'pending' },
      });
      await h.waitForTask(started.json.task_id, (t) => t.status === 'completed');
      const file = (format: string, token = h.token) =>
        h.api.app.inject({
          method: 'GET',
          url: `/v1/embeds/${embedId}/file?format=${format}`,
          headers: { authorization: `Bearer ${token}` },
        });
      const preview = await file('preview');
      expect(preview.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(preview.json()).toEqual({
        embed_id: embedId,
        skill: 'echo.slow_echo',
        previews: [{ title: 'LATER' }],
      });
      const full = await file('full');
      expect(full.headers['content-disposition']).toBe(`attachment; filename="${embedId}.full.json"`);
      expect(full.json()).toEqual({
        embed_id: embedId,
        skill: 'echo.slow_echo',
        created_at: expect.any(String),
        output: { results: [{ text: 'LATER' }] },
        previews: [{ title: 'LATER' }],
      });
      const original = await file('original');
      expect(original.headers['content-disposition']).toBe(`attachment; filename="${embedId}.original.json"`);
      expect(original.json()).toEqual({ results: [{ text: 'LATER' }] });
      const bad = await file('pdf');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toEqual({
        code: 'INVALID_PARAMETER',
        message: 'Invalid querystring at format: Invalid option: expected one of "preview"|"full"|"original"',
        details: {
          issues: [
            {
              path: 'format',
              message: 'Invalid option: expected one of "preview"|"full"|"original"',
              location: 'querystring',
            },
          ],
        },
      });
      const stranger = await file('full', h.otherToken);
      expect(stranger.statusCode).toBe(404);
      expect(stranger.json().error).toEqual({
        code: 'NOT_FOUND',
        message: 'No embed with this id.',
        details: {},
      });
    });
  });

  describe('chats', () => {
    it('sets focus mode with the chat id in the body; validates exactly one mode; ids are per owner', async () => {
      const on = await h.request('POST', '/v1/chats', { chat_id: 'chat_one', focus_mode_on: 'echo.loud' });
      expect(on.status).toBe(200);
      expect(on.json).toEqual({
        chat_id: 'chat_one',
        focus_mode: 'echo.loud',
        webhook_configured: false,
        updated_at: expect.any(String),
      });
      const off = await h.request('POST', '/v1/chats', { chat_id: 'chat_one', focus_mode_off: true });
      expect(off.json).toMatchObject({ chat_id: 'chat_one', focus_mode: null });
      const row = await h.api.deps.store.db
        .selectFrom('chats')
        .selectAll()
        .where('chat_id', '=', 'chat_one')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ owner_id: 'owner_a', focus_mode: null });
      for (const body of [
        { chat_id: 'c1', focus_mode_on: 'echo.loud', focus_mode_off: true },
        { chat_id: 'c1' },
        { chat_id: 'c1', focus_mode_off: false },
        { chat_id: 'a/b', focus_mode_off: true },
      ]) {
        const res = await h.request('POST', '/v1/chats', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.json.error.code).toBe('INVALID_PARAMETER');
      }
      const unknownApp = await h.request('POST', '/v1/chats', { chat_id: 'c1', focus_mode_on: 'nope.loud' });
      expect(unknownApp.json.error).toEqual({
        code: 'INVALID_PARAMETER',
        message: 'Invalid body at focus_mode_on: must be <app>.<mode> of a loaded app',
        details: {
          issues: [
            { path: 'focus_mode_on', message: 'must be <app>.<mode> of a loaded app', location: 'body' },
          ],
        },
      });
      // Another owner's chat of the same id is its own chat: owner A's is left as it was.
      await h.request('POST', '/v1/chats', { chat_id: 'chat_one', focus_mode_on: 'echo.loud' });
      const other = await h.request(
        'POST',
        '/v1/chats',
        { chat_id: 'chat_one', focus_mode_off: true },
        undefined,
        h.otherToken,
      );
      expect([other.status, other.json]).toEqual([
        200,
        { chat_id: 'chat_one', focus_mode: null, webhook_configured: false, updated_at: expect.any(String) },
      ]);
      const rows = await h.api.deps.store.db
        .selectFrom('chats')
        .select(['owner_id', 'focus_mode'])
        .where('chat_id', '=', 'chat_one')
        .orderBy('owner_id')
        .execute();
      expect(rows).toEqual([
        { owner_id: 'owner_a', focus_mode: 'echo.loud' },
        { owner_id: 'owner_b', focus_mode: null },
      ]);
    });

    it('seals webhook URLs (https on 443 to public addresses only) and lists messages', async () => {
      const set = await h.request('POST', '/v1/chats/webhook', {
        chat_id: 'chat_two',
        url: 'https://hooks.example.com/x',
      });
      expect(set.json).toMatchObject({ chat_id: 'chat_two', webhook_configured: true });
      const row = await h.api.deps.store.db
        .selectFrom('chats')
        .select('webhook_url_sealed')
        .where('chat_id', '=', 'chat_two')
        .executeTakeFirstOrThrow();
      expect(
        openJson(TEST_KEYRING, row.webhook_url_sealed!, sealedCell.chatWebhookUrl('chat_two', 'owner_a')),
      ).toBe('https://hooks.example.com/x');
      // Refused at registration: nothing is connected to, names resolve from the test table.
      const host = 'must name a host that resolves only to public addresses';
      for (const [url, message] of [
        ['http://hooks.example.com/x', 'must use https'],
        ['https://hooks.example.com:8443/x', 'must use the default https port 443'],
        ['https://u:p@hooks.example.com/', 'must not contain credentials'],
        ['http://127.0.0.1:9/hook', 'must use https'],
        ['https://127.0.0.1/hook', host],
        ['https://localhost/hook', host],
        ['https://[::1]/hook', host],
        ['https://[::ffff:127.0.0.1]/hook', host],
        ['https://169.254.169.254/latest/meta-data', host],
        ['https://[fd00:ec2::254]/', host],
        ['https://100.64.0.1/', host],
        ['https://[64:ff9b::a00:1]/', host],
        ['https://internal.example.test/hook', host],
        ['https://mixed.example.test/hook', host],
        ['https://unknown.example.test/hook', host],
      ]) {
        const res = await h.request('POST', '/v1/chats/webhook', { chat_id: 'chat_two', url });
        expect([url, res.status, res.json]).toEqual([
          url,
          400,
          {
            error: {
              code: 'INVALID_PARAMETER',
              message: `Invalid value at url: ${message}`,
              details: { issues: [{ path: 'url', message }] },
            },
          },
        ]);
      }
      // Not an http(s) URL at all: the schema's rule (format uri, http or https).
      const ftp = await h.request('POST', '/v1/chats/webhook', {
        chat_id: 'chat_two',
        url: 'ftp://hooks.example.com/',
      });
      const notHttp = 'must be an absolute http or https URL';
      expect([ftp.status, ftp.json]).toEqual([
        400,
        {
          error: {
            code: 'INVALID_PARAMETER',
            message: `Invalid body at url: ${notHttp}`,
            details: { issues: [{ path: 'url', message: notHttp, location: 'body' }] },
          },
        },
      ]);
      expect(
        (await h.request('POST', '/v1/chats/webhook', { chat_id: 'chat_two', url: null })).json
          .webhook_configured,
      ).toBe(false);

      await h.request('POST', '/v1/chats', { chat_id: 'chat_three', focus_mode_off: true });
      for (const step of ['s1', 's2']) {
        await deliver(
          h.api.deps.store,
          TEST_KEYRING,
          {
            ownerId: 'owner_a',
            chatId: 'chat_three',
            title: `T ${step}`,
            message: `M ${step}`,
            taskId: 'task_x',
            stepId: step,
          },
          webhookPolicy(h.api.deps.config.security, TEST_RESOLVE),
          undefined,
          // This API runs in the development mode CHAT_SERVER_SEALED (test/helpers/platform.ts).
          { serverSealed: true },
        );
      }
      const list = await h.request('POST', '/v1/chats/messages', { chat_id: 'chat_three', limit: 1 });
      expect(list.status).toBe(200);
      expect(list.json.chat_id).toBe('chat_three');
      expect(list.json.messages).toHaveLength(1);
      expect(list.json.messages[0]).toMatchObject({
        title: expect.stringMatching(/^T s[12]$/),
        task_id: 'task_x',
        webhook_delivered: false,
      });
      const all = await h.request('POST', '/v1/chats/messages', { chat_id: 'chat_three' });
      expect(all.json.messages.map((m: { message: string }) => m.message).sort()).toEqual(['M s1', 'M s2']);
      const stranger = await h.request(
        'POST',
        '/v1/chats/messages',
        { chat_id: 'chat_three' },
        undefined,
        h.otherToken,
      );
      expect(stranger.json).toEqual({
        error: { code: 'NOT_FOUND', message: 'No chat with this id.', details: {} },
      });
      // Once the other owner sets up a chat of that id, it reads its own (empty) chat, never A's.
      await h.request(
        'POST',
        '/v1/chats',
        { chat_id: 'chat_three', focus_mode_off: true },
        undefined,
        h.otherToken,
      );
      const own = await h.request(
        'POST',
        '/v1/chats/messages',
        { chat_id: 'chat_three' },
        undefined,
        h.otherToken,
      );
      expect([own.status, own.json]).toEqual([200, { chat_id: 'chat_three', messages: [] }]);
      const still = await h.request('POST', '/v1/chats/messages', { chat_id: 'chat_three' });
      expect(still.json.messages).toHaveLength(2);
    });

    it('lists the owner chats, most recently active first, with their message counts; pages by activity', async () => {
      const owner = 'owner_list';
      const { token } = await createKey(h.api.deps.store, {
        name: 'lister',
        scopes: ['workflows'],
        ownerId: owner,
      });
      const get = (query = '') => h.request('GET', `/v1/chats${query}`, undefined, undefined, token);
      expect((await get()).json).toEqual({ chats: [] });
      const send = (chatId: string, step: string) =>
        deliver(
          h.api.deps.store,
          TEST_KEYRING,
          { ownerId: owner, chatId, title: 'T', message: 'M', taskId: 'task_l', stepId: step },
          webhookPolicy(h.api.deps.config.security, TEST_RESOLVE),
          undefined,
          { serverSealed: true },
        );
      await send('chat_old', 's1');
      await send('chat_old', 's2');
      await new Promise((r) => setTimeout(r, 20));
      // A chat with settings only, then one with a message.
      await h.request(
        'POST',
        '/v1/chats',
        { chat_id: 'chat_settings', focus_mode_on: 'echo.loud' },
        undefined,
        token,
      );
      await new Promise((r) => setTimeout(r, 20));
      await send('chat_new', 's3');
      const list = await get();
      expect(list.status).toBe(200);
      const chats = list.json.chats as Record<string, unknown>[];
      expect(chats.map((c) => [c.chat_id, c.messages, c.focus_mode, c.webhook_configured])).toEqual([
        ['chat_new', 1, null, false],
        ['chat_settings', 0, 'echo.loud', false],
        ['chat_old', 2, null, false],
      ]);
      expect(chats[1]!.last_message_at).toBeNull();
      expect(chats[0]!.active_at).toBe(chats[0]!.last_message_at);
      // The next page starts below the last activity of the previous one.
      const page = await get(`?limit=2`);
      expect((page.json.chats as { chat_id: string }[]).map((c) => c.chat_id)).toEqual([
        'chat_new',
        'chat_settings',
      ]);
      const next = await get(`?limit=2&before=${encodeURIComponent(page.json.chats[1].active_at)}`);
      expect((next.json.chats as { chat_id: string }[]).map((c) => c.chat_id)).toEqual(['chat_old']);
      // Another owner's chats are not listed.
      const other = await h.request('GET', '/v1/chats', undefined, undefined, h.otherToken);
      expect((other.json.chats as { chat_id: string }[]).map((c) => c.chat_id)).not.toContain('chat_old');
      const bad = await get('?limit=0');
      expect([bad.status, bad.json]).toEqual([
        400,
        {
          error: {
            code: 'INVALID_PARAMETER',
            message: 'Invalid querystring at limit: Too small: expected number to be >=1',
            details: {
              issues: [
                { path: 'limit', message: 'Too small: expected number to be >=1', location: 'querystring' },
              ],
            },
          },
        },
      ]);
    });
  });

  describe('workspace results', () => {
    const body = (over: Record<string, unknown> = {}) => ({
      expected_user_id: 'owner_a',
      root_id: 'root_12345678',
      key_id: 'browser-key-1',
      algorithm: 'AES-256-GCM',
      root: { iv: 'AAAAAAAAAAAAAAAA', ciphertext: 'c2VjcmV0' },
      children: [{ child_id: 'child_0001', iv: 'BBBBBBBBBBBBBBBB', ciphertext: 'Y2hpbGQ=' }],
      ...over,
    });

    it('stores the opaque payload sealed, replaces it on a repeat post, and answers 409 for another user', async () => {
      const first = await h.request('POST', '/v1/apps/workspace/results', body());
      expect(first.status).toBe(201);
      expect(first.json).toEqual({
        result_id: expect.stringMatching(/^wsr_[0-9a-f]{24}$/),
        root_id: 'root_12345678',
        child_count: 1,
        stored_at: expect.any(String),
      });
      const again = await h.request('POST', '/v1/apps/workspace/results', body({ children: [] }));
      expect(again.status).toBe(200);
      expect(again.json).toMatchObject({ result_id: first.json.result_id, child_count: 0 });
      const row = await h.api.deps.store.db
        .selectFrom('workspace_results')
        .selectAll()
        .executeTakeFirstOrThrow();
      expect(row.payload_sealed).not.toContain('c2VjcmV0');
      expect(
        openJson(TEST_KEYRING, row.payload_sealed, sealedCell.workspaceResult(row.root_id, row.owner_id)),
      ).toMatchObject({
        key_id: 'browser-key-1',
        root: { ciphertext: 'c2VjcmV0' },
        children: [],
      });
      const mismatch = await h.request(
        'POST',
        '/v1/apps/workspace/results',
        body({ expected_user_id: 'owner_b' }),
      );
      expect(mismatch.status).toBe(409);
      expect(mismatch.json.error).toEqual({
        code: 'EXPECTED_USER_MISMATCH',
        message: 'expected_user_id does not match the caller.',
        details: { field: 'expected_user_id' },
      });
    });

    it('bounds every field strictly', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ algorithm: 'ROT13' }, 'algorithm'],
        [{ root: { iv: 'AAAAAAAAAAAAAAAA', ciphertext: 'x'.repeat(256 * 1024 + 1) } }, 'root.ciphertext'],
        [{ root: { iv: 'AAAAAAAAAAAAAAAA', ciphertext: 'not base64!' } }, 'root.ciphertext'],
        [
          {
            children: Array.from({ length: 51 }, (_, i) => ({
              child_id: `child_${1000 + i}`,
              iv: 'AAAA',
              ciphertext: 'AAAA',
            })),
          },
          'children',
        ],
        [{ surprise: true }, 'surprise'],
      ];
      for (const [over, path] of cases) {
        const res = await h.request('POST', '/v1/apps/workspace/results', body(over));
        expect(res.status, path).toBe(400);
        expect(res.json.error.code).toBe('INVALID_PARAMETER');
        expect(res.json.error.details.issues[0].path).toBe(path);
      }
      const { token } = await createKey(h.api.deps.store, {
        name: 'w',
        scopes: ['app:echo'],
        ownerId: 'owner_a',
      });
      const forbidden = await h.request('POST', '/v1/apps/workspace/results', body(), undefined, token);
      expect(forbidden.json.error).toEqual({
        code: 'FORBIDDEN',
        message: 'The API key is not scoped to workspace.results.',
        details: { required_scope: ['app:workspace', 'skill:workspace.results'] },
      });
    });
  });
});
