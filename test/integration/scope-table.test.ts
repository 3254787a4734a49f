/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * Scopes hold everywhere: every route of the running app × every scope shape,
 * with the expected status. The route list comes from Fastify's own route table, so a new route
 * without a row here fails the first test. Tasks and embeds are real (a workflow run, a quick
 * call queued by the tier limit and a long-running skill call on a real Temporal test server and
 * worker), because the scope a task needs depends on what it is. A quick call within the limits
 * is answered inline and opens no task, so the quick task here is a queued one.
 *
 * The fixture apps stand in for the real ones: `echo` for hosting (`echo.shout` for
 * `hosting.search_domains`), `metered` for an unrelated app such as design. The design and
 * encyclopedia apps are in the catalogue too, for the routes they serve themselves (mounted only
 * for the apps of the catalogue).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { designApp } from '../../activities/apps/design/app.js';
import { encyclopediaApp } from '../../activities/apps/encyclopedia/app.js';
import { createKey, type Scope } from '../../lib/keys.js';
import { FIXTURE_APPS } from '../helpers/api.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

/** The scope shapes, in the order of each row's statuses. `none` sends no token. */
const SHAPES: Record<string, Scope[] | null> = {
  none: null,
  all: ['*'],
  workflows: ['workflows'],
  keys: ['keys'],
  admin: ['admin'],
  app_echo: ['app:echo'],
  skill_shout: ['skill:echo.shout'],
  app_metered: ['app:metered'],
  workflows_app_echo: ['workflows', 'app:echo'],
};
const SHAPE_NAMES = Object.keys(SHAPES);
/** A chat key's public half (any 32 bytes register). */
const SCOPE_CHAT_KEY = Buffer.alloc(32, 5).toString('base64');

const DEFINITION = `title: Scoped shout
start_when:
  manual: {}
steps:
  - id: shout
    use_app_skill: echo.shout
    input:
      requests:
        - text: hi
`;

interface Fixtures {
  defId: string;
  runTask: string;
  shoutTask: string;
  slowTask: string;
  embedId: string;
}

interface Row {
  method: string;
  /** The route pattern as Fastify registered it. */
  route: string;
  /** What this row exercises, when one route has several rows. */
  note?: string;
  request: (
    f: Fixtures,
    n: number,
  ) => { url: string; body?: unknown; contentType?: string; headers?: Record<string, string> };
  /** Expected status per shape, in SHAPES order. */
  statuses: [number, number, number, number, number, number, number, number, number];
}

//                     none all  wf   keys admin appE sklS appM wf+appE
const PUBLIC_200 = [200, 200, 200, 200, 200, 200, 200, 200, 200] as const;
const PUBLIC_400 = [400, 400, 400, 400, 400, 400, 400, 400, 400] as const;
const PUBLIC_401 = [401, 401, 401, 401, 401, 401, 401, 401, 401] as const;
const ANY_KEY_200 = [401, 200, 200, 200, 200, 200, 200, 200, 200] as const;
const WORKFLOWS = (ok: number) => [401, ok, ok, 403, 403, 403, 403, 403, ok] as const;
/** `workflows` plus the echo.shout skill: saving, running or triggering the definition. */
const WORKFLOWS_AND_SHOUT = (ok: number) => [401, ok, 403, 403, 403, 403, 403, 403, ok] as const;
const SHOUT = (ok: number) => [401, ok, 403, 403, 403, ok, ok, 403, ok] as const;
const SLOW_ECHO = (ok: number) => [401, ok, 403, 403, 403, ok, 403, 403, ok] as const;
const KEYS = (ok: number) => [401, ok, 403, ok, 403, 403, 403, 403, 403] as const;

const workspaceBody = (n: number) => ({
  expected_user_id: 'owner_a',
  root_id: `root_scope_${n}`,
  key_id: 'browser-key-1',
  algorithm: 'AES-256-GCM',
  root: { iv: 'AAAAAAAAAAAAAAAA', ciphertext: 'c2VjcmV0' },
  children: [],
});

const ROWS: Row[] = [
  // Operations
  { method: 'GET', route: '/v1/health', request: () => ({ url: '/v1/health' }), statuses: [...PUBLIC_200] },
  {
    method: 'GET',
    route: '/v1/health/details',
    request: () => ({ url: '/v1/health/details' }),
    statuses: [401, 403, 403, 403, 200, 403, 403, 403, 403],
  },
  {
    method: 'GET',
    route: '/metrics',
    request: () => ({ url: '/metrics' }),
    statuses: [401, 403, 403, 403, 200, 403, 403, 403, 403],
  },
  {
    method: 'GET',
    route: '/v1/openapi.json',
    request: () => ({ url: '/v1/openapi.json' }),
    statuses: [...PUBLIC_200],
  },
  // The documentation UI (@fastify/swagger-ui)
  ...(
    [
      ['/v1/docs', '/v1/docs', 200],
      ['/v1/docs*', '/v1/docs/', 200],
      ['/v1/docs/json', '/v1/docs/json', 200],
      ['/v1/docs/yaml', '/v1/docs/yaml', 200],
      ['/v1/docs/static/index.html', '/v1/docs/static/index.html', 302],
      ['/v1/docs/static/swagger-initializer.js', '/v1/docs/static/swagger-initializer.js', 200],
    ] as const
  ).map(([route, url, ok]): Row => ({
    method: 'GET',
    route,
    request: () => ({ url }),
    statuses: [ok, ok, ok, ok, ok, ok, ok, ok, ok],
  })),
  {
    method: 'OPTIONS',
    route: '*',
    note: "the codec's CORS preflight (@fastify/cors)",
    request: () => ({
      url: '/codec/decode',
      headers: { origin: 'http://localhost:8233', 'access-control-request-method': 'POST' },
    }),
    statuses: [204, 204, 204, 204, 204, 204, 204, 204, 204],
  },
  ...['encode', 'decode'].map((op): Row => ({
    method: 'POST',
    route: `/codec/${op}`,
    note: 'loopback operator, no codec token configured',
    request: () => ({ url: `/codec/${op}`, body: { payloads: [] } }),
    statuses: [...PUBLIC_200],
  })),
  // Workflow definitions and runs
  {
    method: 'POST',
    route: '/v1/workflows',
    request: () => ({ url: '/v1/workflows', body: DEFINITION, contentType: 'application/yaml' }),
    statuses: [...WORKFLOWS_AND_SHOUT(201)],
  },
  {
    method: 'POST',
    route: '/v1/workflows/validate',
    request: () => ({ url: '/v1/workflows/validate', body: DEFINITION, contentType: 'application/yaml' }),
    statuses: [...WORKFLOWS(200)],
  },
  {
    method: 'GET',
    route: '/v1/workflows',
    request: () => ({ url: '/v1/workflows' }),
    statuses: [...WORKFLOWS(200)],
  },
  {
    method: 'GET',
    route: '/v1/workflows/:id',
    request: (f) => ({ url: `/v1/workflows/${f.defId}` }),
    statuses: [...WORKFLOWS(200)],
  },
  {
    method: 'PUT',
    route: '/v1/workflows/:id',
    note: 'same source: saved again unchanged',
    request: (f) => ({ url: `/v1/workflows/${f.defId}`, body: DEFINITION, contentType: 'application/yaml' }),
    statuses: [...WORKFLOWS_AND_SHOUT(200)],
  },
  {
    method: 'DELETE',
    route: '/v1/workflows/:id',
    note: 'an id that does not exist',
    request: () => ({ url: '/v1/workflows/wf_nope' }),
    statuses: [...WORKFLOWS(404)],
  },
  {
    method: 'POST',
    route: '/v1/workflows/:id/runs',
    request: (f) => ({ url: `/v1/workflows/${f.defId}/runs`, body: { inputs: {} } }),
    statuses: [...WORKFLOWS_AND_SHOUT(202)],
  },
  {
    method: 'GET',
    route: '/v1/workflows/:id/runs',
    request: (f) => ({ url: `/v1/workflows/${f.defId}/runs` }),
    statuses: [...WORKFLOWS(200)],
  },
  ...['pause', 'resume'].map((op): Row => ({
    method: 'POST',
    route: `/v1/workflows/:id/schedule/${op}`,
    note: 'a manual definition has no schedule',
    request: (f) => ({ url: `/v1/workflows/${f.defId}/schedule/${op}` }),
    statuses: [...WORKFLOWS(409)],
  })),
  {
    method: 'POST',
    route: '/v1/workflows/:id/schedule/trigger',
    note: 'a manual definition has no schedule; the skill scopes are checked first',
    request: (f) => ({ url: `/v1/workflows/${f.defId}/schedule/trigger` }),
    statuses: [...WORKFLOWS_AND_SHOUT(409)],
  },
  {
    method: 'POST',
    route: '/v1/workflows/:id/schedule/backfill',
    note: 'a manual definition has no schedule; the skill scopes are checked first',
    request: (f) => ({
      url: `/v1/workflows/${f.defId}/schedule/backfill`,
      body: { start: '2026-01-01T00:00:00Z', end: '2026-01-02T00:00:00Z' },
    }),
    statuses: [...WORKFLOWS_AND_SHOUT(409)],
  },
  // Tasks and embeds: the scope of what the task is
  {
    method: 'GET',
    route: '/v1/tasks/:task_id',
    note: 'a workflow run',
    request: (f) => ({ url: `/v1/tasks/${f.runTask}` }),
    statuses: [...WORKFLOWS(200)],
  },
  {
    method: 'GET',
    route: '/v1/tasks/:task_id',
    note: 'a queued echo.shout call',
    request: (f) => ({ url: `/v1/tasks/${f.shoutTask}` }),
    statuses: [...SHOUT(200)],
  },
  {
    method: 'GET',
    route: '/v1/tasks/:task_id',
    note: 'an echo.slow_echo call',
    request: (f) => ({ url: `/v1/tasks/${f.slowTask}` }),
    statuses: [...SLOW_ECHO(200)],
  },
  {
    method: 'GET',
    route: '/v1/runs',
    request: () => ({ url: '/v1/runs?status=completed&limit=5' }),
    statuses: [...WORKFLOWS(200)],
  },
  {
    method: 'GET',
    route: '/v1/approvals',
    request: () => ({ url: '/v1/approvals' }),
    statuses: [...WORKFLOWS(200)],
  },
  {
    method: 'POST',
    route: '/v1/runs/:run_id/approvals/:step_id',
    note: 'a finished run: nothing waits',
    request: (f) => ({ url: `/v1/runs/${f.runTask}/approvals/ok`, body: { decision: 'approved' } }),
    statuses: [...WORKFLOWS(409)],
  },
  {
    method: 'GET',
    route: '/v1/runs/:run_id/steps/:step_id',
    note: "a finished run's skill step",
    request: (f) => ({ url: `/v1/runs/${f.runTask}/steps/shout` }),
    statuses: [...WORKFLOWS(200)],
  },
  {
    method: 'POST',
    route: '/v1/runs/:run_id/rerun',
    note: "a finished run: `workflows` and the plan's skill (echo.shout), as a start",
    request: (f) => ({ url: `/v1/runs/${f.runTask}/rerun`, body: {} }),
    statuses: [...WORKFLOWS_AND_SHOUT(202)],
  },
  {
    method: 'POST',
    route: '/v1/events',
    note: 'an event nothing waits for or is started by',
    request: () => ({ url: '/v1/events', body: { name: 'scope.nothing', data: {} } }),
    statuses: [...WORKFLOWS(200)],
  },
  {
    method: 'POST',
    route: '/v1/workflows/:id/hook/rotate',
    note: 'a manual definition: no hook to rotate (the scopes a save needs come after)',
    request: (f) => ({ url: `/v1/workflows/${f.defId}/hook/rotate` }),
    statuses: [...WORKFLOWS(409)],
  },
  {
    method: 'POST',
    route: '/v1/hooks/:hook_id',
    note: 'public (the signature is the right); an unsigned request is 401 for every caller',
    request: () => ({ url: `/v1/hooks/hk_${'0'.repeat(32)}`, body: {} }),
    statuses: [...PUBLIC_401],
  },
  {
    method: 'POST',
    route: '/v1/approval-links/view',
    note: 'public (the link is the right); an empty token is a validation error for every caller',
    request: () => ({ url: '/v1/approval-links/view', body: { token: '' } }),
    statuses: [...PUBLIC_400],
  },
  {
    method: 'POST',
    route: '/v1/approval-links/decide',
    note: 'public (the link is the right); an empty token is a validation error for every caller',
    request: () => ({ url: '/v1/approval-links/decide', body: { token: '', decision: 'approved' } }),
    statuses: [...PUBLIC_400],
  },
  {
    method: 'POST',
    route: '/v1/tasks/:task_id/cancel',
    note: 'a finished workflow run',
    request: (f) => ({ url: `/v1/tasks/${f.runTask}/cancel` }),
    statuses: [...WORKFLOWS(202)],
  },
  {
    method: 'POST',
    route: '/v1/tasks/:task_id/cancel',
    note: 'a queued echo.shout call',
    request: (f) => ({ url: `/v1/tasks/${f.shoutTask}/cancel` }),
    statuses: [...SHOUT(202)],
  },
  {
    method: 'GET',
    route: '/v1/embeds/:embed_id/file',
    note: 'the embed of an echo.slow_echo call',
    request: (f) => ({ url: `/v1/embeds/${f.embedId}/file?format=full` }),
    statuses: [...SLOW_ECHO(200)],
  },
  {
    method: 'POST',
    route: '/v1/assets/download-links',
    note: 'a download link to the embed of an echo.slow_echo call',
    request: (f) => ({ url: '/v1/assets/download-links', body: { embed_id: f.embedId } }),
    statuses: [...SLOW_ECHO(200)],
  },
  {
    method: 'GET',
    route: '/v1/assets/download/:token',
    note: 'public (the link is the right); a token over its length limit is a validation error for every caller',
    request: () => ({ url: `/v1/assets/download/${'A'.repeat(490)}` }),
    statuses: [...PUBLIC_400],
  },
  // Apps and skills
  // Encyclopedia (no ENCYCLOPEDIA_URL here: an authorised lookup answers 503 before any upstream)
  {
    method: 'GET',
    route: '/v1/encyclopedia/search',
    request: () => ({ url: '/v1/encyclopedia/search?query=Paris&language=en' }),
    statuses: [401, 503, 403, 403, 403, 403, 403, 403, 403],
  },
  {
    method: 'GET',
    route: '/v1/encyclopedia/summary',
    request: () => ({ url: '/v1/encyclopedia/summary?title=Paris&language=en' }),
    statuses: [401, 503, 403, 403, 403, 403, 403, 403, 403],
  },
  {
    method: 'GET',
    route: '/v1/apps/design/icons/upstream/:prefix/:file',
    note: 'public (no scope applies); a file name without .svg is a validation error for every caller',
    request: () => ({ url: '/v1/apps/design/icons/upstream/tabler/home.txt' }),
    statuses: [400, 400, 400, 400, 400, 400, 400, 400, 400],
  },
  {
    method: 'GET',
    route: '/v1/encyclopedia/thumbnail',
    note: 'public (no scope applies); without `src` it is a validation error for every caller',
    request: () => ({ url: '/v1/encyclopedia/thumbnail' }),
    statuses: [400, 400, 400, 400, 400, 400, 400, 400, 400],
  },
  {
    method: 'GET',
    route: '/v1/apps/design/icons/upstream/:prefix/:file',
    note: 'public (no scope applies): a sanitised icon from the offline sets, for `<img src>`',
    request: () => ({ url: '/v1/apps/design/icons/upstream/mdi/home.svg' }),
    statuses: [...PUBLIC_200],
  },
  {
    method: 'POST',
    route: '/v1/apps/design/skills/search_icons',
    note: 'the design app is served for its own route; its skill needs app:design',
    request: () => ({
      url: '/v1/apps/design/skills/search_icons',
      body: { requests: [{ query: 'home' }] },
    }),
    statuses: [401, 200, 403, 403, 403, 403, 403, 403, 403],
  },
  {
    method: 'POST',
    route: '/v1/apps/encyclopedia/skills/search_articles',
    note: 'no ENCYCLOPEDIA_URL here: an authorised call answers 503 before any upstream',
    request: () => ({
      url: '/v1/apps/encyclopedia/skills/search_articles',
      body: { requests: [{ query: 'Paris', language: 'en' }] },
    }),
    statuses: [401, 503, 403, 403, 403, 403, 403, 403, 403],
  },
  {
    method: 'POST',
    route: '/v1/apps/encyclopedia/skills/get_summary',
    note: 'no ENCYCLOPEDIA_URL here: an authorised call answers 503 before any upstream',
    request: () => ({
      url: '/v1/apps/encyclopedia/skills/get_summary',
      body: { requests: [{ title: 'Paris', language: 'en' }] },
    }),
    statuses: [401, 503, 403, 403, 403, 403, 403, 403, 403],
  },
  {
    method: 'GET',
    route: '/v1/apps/:app_id',
    request: () => ({ url: '/v1/apps/echo' }),
    statuses: [...ANY_KEY_200],
  },
  {
    method: 'GET',
    route: '/v1/apps/:app_id/skills/:skill_id',
    request: () => ({ url: '/v1/apps/echo/skills/shout' }),
    statuses: [...ANY_KEY_200],
  },
  {
    method: 'GET',
    route: '/v1/apps/:app_id/skills/:skill_id/details',
    request: () => ({ url: '/v1/apps/echo/skills/shout/details' }),
    statuses: [...ANY_KEY_200],
  },
  {
    method: 'POST',
    route: '/v1/apps/echo/skills/shout',
    request: () => ({ url: '/v1/apps/echo/skills/shout', body: { requests: [{ text: 'x' }] } }),
    statuses: [...SHOUT(200)],
  },
  {
    method: 'POST',
    route: '/v1/apps/echo/skills/slow_echo',
    request: () => ({ url: '/v1/apps/echo/skills/slow_echo', body: { requests: [{ text: 'x' }] } }),
    statuses: [...SLOW_ECHO(202)],
  },
  {
    method: 'POST',
    route: '/v1/apps/metered/skills/ping',
    request: () => ({ url: '/v1/apps/metered/skills/ping', body: { requests: [{ text: 'x' }] } }),
    statuses: [401, 200, 403, 403, 403, 403, 403, 200, 403],
  },
  {
    method: 'POST',
    route: '/v1/apps/:app_id/skills/:skill_id',
    note: 'a hyphenated id',
    request: () => ({ url: '/v1/apps/echo/skills/slow-echo', body: { requests: [{ text: 'x' }] } }),
    statuses: [...SLOW_ECHO(202)],
  },
  {
    method: 'POST',
    route: '/v1/apps/workspace/results',
    request: (_f, n) => ({ url: '/v1/apps/workspace/results', body: workspaceBody(n) }),
    statuses: [401, 201, 403, 403, 403, 403, 403, 403, 403],
  },
  // Keys
  {
    method: 'POST',
    route: '/v1/keys',
    note: 'a key with the keys scope',
    request: () => ({ url: '/v1/keys', body: { name: 'minted', scopes: ['keys'] } }),
    statuses: [...KEYS(201)],
  },
  { method: 'GET', route: '/v1/keys', request: () => ({ url: '/v1/keys' }), statuses: [...KEYS(200)] },
  // Workspace sessions: any key signs in or makes a sign-in link; listing and ending need `keys`.
  {
    method: 'POST',
    route: '/v1/sessions',
    request: () => ({ url: '/v1/sessions' }),
    statuses: [401, 201, 201, 201, 201, 201, 201, 201, 201],
  },
  {
    method: 'POST',
    route: '/v1/sessions/sign-in-links',
    request: () => ({ url: '/v1/sessions/sign-in-links' }),
    statuses: [401, 201, 201, 201, 201, 201, 201, 201, 201],
  },
  {
    method: 'GET',
    route: '/v1/sessions/current',
    note: 'a key is no session: 404 for every key',
    request: () => ({ url: '/v1/sessions/current' }),
    statuses: [401, 404, 404, 404, 404, 404, 404, 404, 404],
  },
  {
    method: 'DELETE',
    route: '/v1/sessions/current',
    note: 'a key is no session: 404 for every key',
    request: () => ({ url: '/v1/sessions/current' }),
    statuses: [401, 404, 404, 404, 404, 404, 404, 404, 404],
  },
  {
    method: 'GET',
    route: '/v1/sessions',
    request: () => ({ url: '/v1/sessions' }),
    statuses: [...KEYS(200)],
  },
  {
    method: 'DELETE',
    route: '/v1/sessions/:session_id',
    note: 'an id that does not exist',
    request: () => ({ url: '/v1/sessions/sesnope' }),
    statuses: [...KEYS(404)],
  },
  {
    method: 'POST',
    route: '/v1/sessions/exchange',
    note: 'public (the code is the right); an unknown code is 401 for every caller',
    request: () => ({ url: '/v1/sessions/exchange', body: { code: `sic_${'A'.repeat(43)}` } }),
    statuses: [...PUBLIC_401],
  },
  // Usage records: any key reads its own (a `keys` key every key's of its account).
  { method: 'GET', route: '/v1/usage', request: () => ({ url: '/v1/usage' }), statuses: [...ANY_KEY_200] },
  {
    method: 'DELETE',
    route: '/v1/keys/:key_id',
    note: 'an id that does not exist',
    request: () => ({ url: '/v1/keys/knope' }),
    statuses: [...KEYS(404)],
  },
  // Chats
  { method: 'GET', route: '/v1/chats', request: () => ({ url: '/v1/chats' }), statuses: [...WORKFLOWS(200)] },
  {
    method: 'POST',
    route: '/v1/chats',
    request: () => ({ url: '/v1/chats', body: { chat_id: 'chat_scopes', focus_mode_off: true } }),
    statuses: [...WORKFLOWS(200)],
  },
  {
    method: 'POST',
    route: '/v1/chats/webhook',
    request: () => ({ url: '/v1/chats/webhook', body: { chat_id: 'chat_scopes', url: null } }),
    statuses: [...WORKFLOWS(200)],
  },
  {
    method: 'POST',
    route: '/v1/chats/messages',
    note: 'a chat that does not exist',
    request: () => ({ url: '/v1/chats/messages', body: { chat_id: 'chat_never_used' } }),
    statuses: [...WORKFLOWS(404)],
  },
  {
    method: 'POST',
    route: '/v1/chats/keys',
    note: 'a public key registered again answers 200',
    request: () => ({ url: '/v1/chats/keys', body: { public_key: SCOPE_CHAT_KEY } }),
    statuses: [...WORKFLOWS(200)],
  },
  {
    method: 'GET',
    route: '/v1/chats/keys',
    request: () => ({ url: '/v1/chats/keys' }),
    statuses: [...WORKFLOWS(200)],
  },
  {
    method: 'DELETE',
    route: '/v1/chats/keys/:key_id',
    note: 'an id that does not exist',
    request: () => ({ url: '/v1/chats/keys/ck_none' }),
    statuses: [...WORKFLOWS(404)],
  },
  // The web workspace's files (public; the page asks for a key itself). test/global-setup.ts builds web/dist.
  { method: 'GET', route: '/', request: () => ({ url: '/' }), statuses: [...PUBLIC_200] },
  {
    method: 'GET',
    route: '/assets/:file',
    note: 'a name that is not in the build',
    request: () => ({ url: '/assets/not-built.js' }),
    statuses: [404, 404, 404, 404, 404, 404, 404, 404, 404],
  },
  {
    method: 'GET',
    route: '/favicon.ico',
    request: () => ({ url: '/favicon.ico' }),
    statuses: [204, 204, 204, 204, 204, 204, 204, 204, 204],
  },
  {
    method: 'GET',
    route: '/apps/:app/:skill',
    note: 'compact path → /#apps/<app>/<skill>',
    request: () => ({ url: '/apps/hosting/search-domains' }),
    statuses: [302, 302, 302, 302, 302, 302, 302, 302, 302],
  },
  // Guests: no token needed, a token changes nothing
  {
    method: 'POST',
    route: '/v1/anonymous/apps/:app_id/skills/:skill_id',
    note: 'without a guest id',
    request: () => ({ url: '/v1/anonymous/apps/echo/skills/shout', body: { requests: [{ text: 'x' }] } }),
    statuses: [400, 400, 400, 400, 400, 400, 400, 400, 400],
  },
  {
    method: 'POST',
    route: '/v1/anonymous/apps/:app_id/skills/:skill_id/quote',
    note: 'without a guest id',
    request: () => ({
      url: '/v1/anonymous/apps/echo/skills/shout/quote',
      body: { requests: [{ text: 'x' }] },
    }),
    statuses: [400, 400, 400, 400, 400, 400, 400, 400, 400],
  },
  {
    method: 'GET',
    route: '/v1/anonymous/free-usage/status',
    request: () => ({ url: '/v1/anonymous/free-usage/status' }),
    statuses: [...PUBLIC_200],
  },
  {
    method: 'GET',
    route: '/v1/anonymous/apps',
    note: 'the public catalogue (product metadata, no tenant data)',
    request: () => ({ url: '/v1/anonymous/apps' }),
    statuses: [...PUBLIC_200],
  },
  {
    method: 'GET',
    route: '/v1/anonymous/apps/:app_id/skills/:skill_id/details',
    note: 'the public catalogue (product metadata, no tenant data)',
    request: () => ({ url: '/v1/anonymous/apps/echo/skills/shout/details' }),
    statuses: [...PUBLIC_200],
  },
];

/** `METHOD /pattern` for every route in Fastify's route table (HEAD mirrors GET). */
function routeTable(printed: string): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of printed.split('\n')) {
    const m = /^((?:│ {3}| {4})*)[├└]── (\S+)(?: \(([^)]+)\))?/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    for (const method of (m[3] ?? '').split(', ').filter((x) => x && x !== 'HEAD'))
      out.push(`${method} ${stack.join('')}`);
  }
  return out.sort();
}

describe('scopes × routes', () => {
  let h: EngineHarness;
  let fixtures: Fixtures;
  const tokens: Record<string, string | null> = {};

  beforeAll(async () => {
    h = await startEngine({
      apps: [...FIXTURE_APPS, designApp, encyclopediaApp],
      config: {
        RATE_LIMIT_STANDARD_PER_MINUTE: 100_000,
        RATE_LIMIT_PRO_PER_MINUTE: 1,
        PUBLIC_RATE_LIMIT_PER_MINUTE: 0,
      },
    });
    for (const [name, scopes] of Object.entries(SHAPES)) {
      tokens[name] = scopes
        ? (await createKey(h.api.deps.store, { name, scopes, ownerId: 'owner_a' })).token
        : null;
    }
    // Registered here, so every shape's registration of it answers 200.
    expect((await h.request('POST', '/v1/chats/keys', { public_key: SCOPE_CHAT_KEY })).status).toBe(201);
    const def = await h.request('POST', '/v1/workflows', DEFINITION, 'application/yaml');
    const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, { inputs: {} });
    // A pro key allowed one request a minute: its second quick call is queued to the reset.
    const { token: limited } = await createKey(h.api.deps.store, {
      name: 'one a minute',
      scopes: ['*'],
      ownerId: 'owner_a',
      tier: 'pro',
    });
    const shoutCall = () =>
      h.request('POST', '/v1/apps/echo/skills/shout', { requests: [{ text: 'x' }] }, undefined, limited);
    expect((await shoutCall()).status).toBe(200);
    const shout = await shoutCall();
    expect([shout.status, shout.json.status]).toEqual([202, 'queued']);
    const slow = await h.request('POST', '/v1/apps/echo/skills/slow_echo', { requests: [{ text: 'x' }] });
    fixtures = {
      defId: def.json.id,
      runTask: run.json.task_id,
      shoutTask: shout.json.task_id,
      slowTask: slow.json.task_id,
      embedId: slow.json.embed_id,
    };
    for (const task of [fixtures.runTask, fixtures.slowTask])
      await h.waitForTask(task, (t: any) => t.status === 'completed');
    // Health answers 200 once the worker is seen polling.
    for (let i = 0; i < 80; i++) {
      if ((await h.api.app.inject({ method: 'GET', url: '/v1/health' })).statusCode === 200) break;
      await new Promise((r) => setTimeout(r, 250));
    }
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('has a row for every route of the running app', () => {
    const routes = routeTable(h.api.app.printRoutes({ commonPrefix: false }));
    const covered = [...new Set(ROWS.map((r) => `${r.method} ${r.route}`))].sort();
    expect(covered).toEqual(routes);
  });

  it('answers every route × scope shape with the expected status', async () => {
    let n = 0;
    const actual: string[] = [];
    const expected: string[] = [];
    for (const row of ROWS) {
      for (const [i, shape] of SHAPE_NAMES.entries()) {
        const { url, body, contentType, headers } = row.request(fixtures, n++);
        const payload = body === undefined || typeof body === 'string' ? body : JSON.stringify(body);
        const token = tokens[shape];
        const res = await h.api.app.inject({
          method: row.method as 'GET',
          url,
          headers: {
            ...headers,
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(payload !== undefined ? { 'content-type': contentType ?? 'application/json' } : {}),
          },
          ...(payload !== undefined ? { payload } : {}),
        });
        const label = `${row.method} ${row.route}${row.note ? ` (${row.note})` : ''} as ${shape}`;
        actual.push(`${label}: ${res.statusCode}`);
        expected.push(`${label}: ${row.statuses[i]}`);
        if (res.statusCode === 403) {
          expect(res.json().error, label).toMatchObject({ code: 'FORBIDDEN', details: expect.any(Object) });
        }
      }
    }
    expect(actual).toEqual(expected);
  }, 120_000);

  it('names the missing skills when a workflows-only key saves or runs a definition', async () => {
    const forbidden = {
      error: {
        code: 'FORBIDDEN',
        message: 'The API key is not scoped to every skill this workflow uses.',
        details: { skills: ['echo.shout'], required_scope: ['skill:echo.shout'] },
      },
    };
    const save = await h.request('POST', '/v1/workflows', DEFINITION, 'application/yaml', tokens.workflows!);
    expect([save.status, save.json]).toEqual([403, forbidden]);
    const run = await h.request(
      'POST',
      `/v1/workflows/${fixtures.defId}/runs`,
      { inputs: {} },
      undefined,
      tokens.workflows!,
    );
    expect([run.status, run.json]).toEqual([403, forbidden]);
  });

  it('answers a task of the wrong kind with 403 naming the scope it needs', async () => {
    const asSkillKey = await h.request(
      'GET',
      `/v1/tasks/${fixtures.runTask}`,
      undefined,
      undefined,
      tokens.app_metered!,
    );
    expect([asSkillKey.status, asSkillKey.json]).toEqual([
      403,
      {
        error: {
          code: 'FORBIDDEN',
          message: 'The API key lacks the "workflows" scope.',
          details: { required_scope: 'workflows' },
        },
      },
    ]);
    const asWorkflowsKey = await h.request(
      'GET',
      `/v1/tasks/${fixtures.shoutTask}`,
      undefined,
      undefined,
      tokens.workflows!,
    );
    expect([asWorkflowsKey.status, asWorkflowsKey.json]).toEqual([
      403,
      {
        error: {
          code: 'FORBIDDEN',
          message: 'The API key is not scoped to echo.shout.',
          details: { required_scope: ['app:echo', 'skill:echo.shout'] },
        },
      },
    ]);
  });

  it('never mints a key broader than its creator', async () => {
    const mint = (creator: string, scopes: string[], tier?: string) =>
      h.request(
        'POST',
        '/v1/keys',
        { name: 'child', scopes, ...(tier ? { tier } : {}) },
        undefined,
        tokens[creator]!,
      );
    const refused = (scopes: string[]) => ({
      error: {
        code: 'FORBIDDEN',
        message: 'A key cannot grant scopes its creator lacks.',
        details: { scopes },
      },
    });
    const keysOnly = await mint('keys', ['keys', 'workflows', '*', 'admin']);
    expect([keysOnly.status, keysOnly.json]).toEqual([403, refused(['workflows', '*', 'admin'])]);
    // `*` covers every tenant scope, but not `admin`.
    const all = await createKey(h.api.deps.store, { name: 'all', scopes: ['*'], ownerId: 'owner_a' });
    tokens.all_keys = all.token;
    const fromAll = await mint('all_keys', ['admin']);
    expect([fromAll.status, fromAll.json]).toEqual([403, refused(['admin'])]);
    expect((await mint('all_keys', ['workflows', 'skill:echo.shout', 'app:metered'])).status).toBe(201);
    // `app:x` covers `skill:x.*`, nothing else.
    const scoped = await createKey(h.api.deps.store, {
      name: 'k',
      scopes: ['keys', 'app:echo'],
      ownerId: 'owner_a',
      tier: 'free',
    });
    tokens.keys_app_echo = scoped.token;
    expect((await mint('keys_app_echo', ['skill:echo.shout'])).status).toBe(201);
    const wider = await mint('keys_app_echo', ['skill:metered.ping']);
    expect([wider.status, wider.json]).toEqual([403, refused(['skill:metered.ping'])]);
    const higherTier = await mint('keys_app_echo', ['app:echo'], 'pro');
    expect([higherTier.status, higherTier.json]).toEqual([
      403,
      {
        error: {
          code: 'FORBIDDEN',
          message: 'A key cannot have a higher tier than its creator (free).',
          details: { tier: 'pro' },
        },
      },
    ]);
  });
});
