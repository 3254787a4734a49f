/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * The authorisation matrix: every operation of the OpenAPI document (and the public routes the
 * document leaves out) × four identities, with what each must answer.
 *
 * - `none`: no Authorization header → 401 UNAUTHENTICATED;
 * - `unscoped`: a key of owner A without the scope the operation needs → 403 FORBIDDEN naming it;
 * - `other`: a key of owner B with exactly the right scope, on owner A's object → 404 NOT_FOUND,
 *   the same answer as for an id that does not exist (on an operation without an object in the
 *   request, B gets its own 2xx and never sees A's data);
 * - `owner`: a key of owner A with exactly the right scope → 2xx.
 *
 * Public operations state their own four answers. Each case fills the request from owner A's
 * objects ({@link Fixtures}); bodies are fixed examples per operation.
 */
import { expect } from 'vitest';
import type { Scope } from '../../lib/keys.js';
import { signatureHeader } from '../../lib/webhooks/hook-signature.js';
import {
  CHAT_ID,
  MANUAL_DEFINITION,
  OWNER_A,
  OWNER_B,
  POWER_SEARCH,
  TEAM_ID,
  workspaceUpload,
  type Fixtures,
} from './authz-fixtures.js';

export const IDENTITIES = ['none', 'unscoped', 'other', 'owner'] as const;
export type Identity = (typeof IDENTITIES)[number];

/** What one cell answers: the status, the whole body for errors, a check of the body for 2xx. */
export interface Cell {
  status: number;
  body?: unknown;
  check?: (json: any, f: Fixtures) => void;
}

/** The object kinds owner A has, and what an operation without an owned object is. */
export type Kind =
  | 'definition'
  | 'run'
  | 'task'
  | 'embed'
  | 'chat'
  | 'key'
  | 'team'
  | 'workspace-result'
  | 'usage'
  | 'catalogue'
  | 'operator'
  | 'public'
  | PlannedKind;

/**
 * Object kinds whose routes do not exist yet, and how their paths will read. Once the document
 * has such an operation, the matrix test fails until the table has cases of that kind for it.
 */
export const PLANNED_KINDS = { approval: /approval/i, hook: /\/hooks?(\/|$)/ } as const;
export type PlannedKind = keyof typeof PLANNED_KINDS;

/** Every kind of object owner A holds, each of which the table must exercise. */
export const OWNED_KINDS: Kind[] = [
  'definition',
  'run',
  'task',
  'embed',
  'chat',
  'key',
  'team',
  'workspace-result',
  'usage',
];

/** Kinds whose scope depends on the object (known only after the owner's lookup). */
export const SCOPE_OF_OBJECT: Kind[] = ['run', 'task', 'embed'];

export interface Request {
  url: string;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface Case {
  kind: Kind;
  note?: string;
  /** The scopes of the right key (owner A's and owner B's). */
  right: Scope[];
  /** The scopes of owner A's key that lacks what the operation needs. */
  wrong: Scope[];
  request: (f: Fixtures, who: Identity) => Request;
  expect: Record<Identity, Cell>;
}

const envelope = (code: string, message: string, details: object = {}) => ({
  error: { code, message, details },
});
const UNAUTHENTICATED: Cell = {
  status: 401,
  body: envelope('UNAUTHENTICATED', 'Send Authorization: Bearer <API token>.'),
};
const lacks = (scope: string): Cell => ({
  status: 403,
  body: envelope('FORBIDDEN', `The API key lacks the "${scope}" scope.`, { required_scope: scope }),
});
const notScopedTo = (app: string, skill: string): Cell => ({
  status: 403,
  body: envelope('FORBIDDEN', `The API key is not scoped to ${app}.${skill}.`, {
    required_scope: [`app:${app}`, `skill:${app}.${skill}`],
  }),
});
const notFound = (message: string): Cell => ({ status: 404, body: envelope('NOT_FOUND', message) });
const ok = (status: number, check?: Cell['check']): Cell => ({ status, ...(check ? { check } : {}) });

/** An operation on owner A's object: 401, 403, 404, 2xx. */
const owned = (forbidden: Cell, missing: Cell, done: Cell): Record<Identity, Cell> => ({
  none: UNAUTHENTICATED,
  unscoped: forbidden,
  other: missing,
  owner: done,
});
/** An operation without an object in the request: owner B gets its own answer. */
const unowned = (forbidden: Cell, done: Cell, other: Cell = done): Record<Identity, Cell> => ({
  none: UNAUTHENTICATED,
  unscoped: forbidden,
  other,
  owner: done,
});
/** Public: the same answer with and without any key. */
const open = (done: Cell): Record<Identity, Cell> => ({
  none: done,
  unscoped: done,
  other: done,
  owner: done,
});

const NO_DEFINITION = notFound('No workflow definition with this id.');
const NO_SESSION = notFound('This request did not come over a session.');
const NO_TASK = notFound('No task with this id.');
const WORKFLOWS = { right: ['workflows'] as Scope[], wrong: ['keys'] as Scope[] };
const YAML = 'application/yaml';

/** A backfill window around one tick of an every-1d schedule: two days ago at midnight UTC. */
const ONE_DAILY_TICK = (() => {
  const day = 86_400_000;
  const tick = Math.floor(Date.now() / day) * day - 2 * day;
  return { start: new Date(tick - 3_600_000).toISOString(), end: new Date(tick + 3_600_000).toISOString() };
})();

const definitionCase = (
  path: (f: Fixtures) => string,
  done: Cell,
  extra: Partial<Pick<Case, 'note'>> & { body?: unknown; contentType?: string } = {},
): Case => ({
  kind: 'definition',
  ...WORKFLOWS,
  ...(extra.note ? { note: extra.note } : {}),
  request: (f) => ({
    url: path(f),
    ...(extra.body !== undefined ? { body: extra.body } : {}),
    ...(extra.contentType ? { contentType: extra.contentType } : {}),
  }),
  expect: owned(lacks('workflows'), NO_DEFINITION, done),
});

/** A catalogue read: any valid key. */
const catalogue = (url: string): Case => ({
  kind: 'catalogue',
  right: ['app:hosting'],
  wrong: ['keys'],
  request: () => ({ url }),
  expect: unowned(ok(200), ok(200)),
});

/** A skill call: the app's scope; owner B's call is its own. */
const skillCall = (app: string, skill: string, body: unknown, status: number): Case => ({
  kind: 'usage',
  note: 'a skill call, billed to the caller',
  right: [`app:${app}`],
  wrong: ['workflows'],
  request: () => ({ url: `/v1/apps/${app}/skills/${skill}`, body }),
  expect: unowned(notScopedTo(app, skill), ok(status)),
});

const taskCases = (suffix: string, status: number): Case[] => [
  {
    kind: 'run',
    note: 'a workflow run',
    right: ['workflows'],
    wrong: ['app:electronics'],
    request: (f) => ({ url: `/v1/tasks/${f.runTask}${suffix}` }),
    expect: owned(lacks('workflows'), NO_TASK, ok(status)),
  },
  {
    kind: 'task',
    note: 'a long-running skill call',
    right: ['app:electronics'],
    wrong: ['workflows'],
    request: (f) => ({ url: `/v1/tasks/${f.skillTask}${suffix}` }),
    expect: owned(notScopedTo('electronics', 'search_power_designs'), NO_TASK, ok(status)),
  },
];

const chatCase = (path: string, body: object, other: Cell, done: Cell): Case => ({
  kind: 'chat',
  ...WORKFLOWS,
  request: () => ({ url: path, body: { chat_id: CHAT_ID, ...body } }),
  expect: owned(lacks('workflows'), other, done),
});

/** A chat as the answer shows it: owner A's chat has a webhook until the webhook cell clears it. */
const chatState = (webhook: boolean) => (j: any) =>
  expect(j).toMatchObject({ chat_id: CHAT_ID, focus_mode: null, webhook_configured: webhook });
/**
 * Chat ids are chosen by the client and are per owner: owner B using owner A's chat id sets up
 * its own chat of that id (no webhook: A's is not reached), never A's, and no id can be claimed.
 */
const OWN_CHAT = ok(200, chatState(false));

/** Usage records: some, every one the owner's (the skill calls above made them). */
const ownRecords = (ownerId: string) => (j: any) => {
  expect(j.records.length).toBeGreaterThan(0);
  for (const r of j.records) expect(r.owner_id).toBe(ownerId);
};
const ids = (list: { id: string }[]) => list.map((x) => x.id);
const GUEST = { 'x-skillflow-anonymous-id': 'authz-matrix-guest-0001' };

/** Every operation of the OpenAPI document, `METHOD /path` as the document spells it. */
export const DOCUMENTED: Record<string, Case[]> = {
  'GET /v1/health': [
    {
      kind: 'public',
      right: ['*'],
      wrong: ['keys'],
      request: () => ({ url: '/v1/health' }),
      expect: open({ status: 200, body: { status: 'up' } }),
    },
  ],
  ...Object.fromEntries(
    ['GET /v1/health/details', 'GET /metrics'].map((op) => [
      op,
      [
        {
          kind: 'operator',
          note: 'operator data, no tenant objects: any admin key',
          right: ['admin'],
          wrong: ['*'],
          request: () => ({ url: op.split(' ')[1]! }),
          expect: unowned(lacks('admin'), ok(200)),
        } satisfies Case,
      ],
    ]),
  ),
  ...Object.fromEntries(
    ['encode', 'decode'].map((op) => [
      `POST /codec/${op}`,
      [
        {
          kind: 'public',
          note: 'the Temporal UI codec on loopback, no codec token configured',
          right: ['*'],
          wrong: ['keys'],
          request: () => ({ url: `/codec/${op}`, body: { payloads: [] } }),
          expect: open({ status: 200, body: { payloads: [] } }),
        } satisfies Case,
      ],
    ]),
  ),
  'POST /v1/workflows': [
    {
      kind: 'definition',
      note: "owner B's save is its own definition",
      ...WORKFLOWS,
      request: () => ({ url: '/v1/workflows', body: MANUAL_DEFINITION, contentType: YAML }),
      expect: unowned(
        lacks('workflows'),
        ok(201, (j, f) => expect([j.title, j.id === f.definition]).toEqual(['Authz chat', false])),
      ),
    },
  ],
  'GET /v1/approvals': [
    {
      kind: 'approval',
      ...WORKFLOWS,
      request: () => ({ url: '/v1/approvals' }),
      expect: unowned(
        lacks('workflows'),
        ok(200, (j, f) => expect(j.approvals.map((a: any) => a.run_id)).toContain(f.approvalRun)),
        ok(200, (j, f) => expect(j.approvals.map((a: any) => a.run_id)).not.toContain(f.approvalRun)),
      ),
    },
  ],
  'POST /v1/runs/{run_id}/rerun': [
    {
      kind: 'run',
      ...WORKFLOWS,
      note: 'a completed run: every step runs again',
      request: (f) => ({ url: `/v1/runs/${f.runTask}/rerun`, body: {} }),
      expect: owned(
        lacks('workflows'),
        NO_TASK,
        ok(202, (j, f) =>
          expect(j).toMatchObject({ rerun_of: f.runTask, from_step: 'notify', reused_steps: [] }),
        ),
      ),
    },
  ],
  'GET /v1/runs/{run_id}/steps/{step_id}': [
    {
      kind: 'run',
      ...WORKFLOWS,
      note: "a completed run's chat step",
      request: (f) => ({ url: `/v1/runs/${f.runTask}/steps/notify` }),
      expect: owned(
        lacks('workflows'),
        NO_TASK,
        ok(200, (j, f) => expect(j).toMatchObject({ run_id: f.runTask, step_id: 'notify', kind: 'chat' })),
      ),
    },
  ],
  'POST /v1/runs/{run_id}/approvals/{step_id}': [
    {
      kind: 'approval',
      ...WORKFLOWS,
      request: (f) => ({ url: `/v1/runs/${f.approvalRun}/approvals/first`, body: { decision: 'approved' } }),
      expect: owned(
        lacks('workflows'),
        NO_TASK,
        ok(200, (j, f) =>
          expect(j).toMatchObject({ run_id: f.approvalRun, step_id: 'first', decision: 'approved' }),
        ),
      ),
    },
  ],
  'POST /v1/events': [
    {
      kind: 'definition',
      note: "an event nothing waits for: owner B's reaches only its own runs",
      ...WORKFLOWS,
      request: () => ({ url: '/v1/events', body: { name: 'authz.nothing', data: { id: 'x' } } }),
      expect: unowned(
        lacks('workflows'),
        ok(200, (j) => expect(j).toEqual({ resumed: 0, started: 0 })),
      ),
    },
  ],
  'POST /v1/approval-links/view': [
    {
      kind: 'approval',
      note: 'the link is the right: the same answer with any key or none',
      right: ['*'],
      wrong: ['keys'],
      request: (f) => ({ url: '/v1/approval-links/view', body: { token: f.approvalLink } }),
      expect: open(ok(200, (j) => expect(j.title).toBe('Second'))),
    },
  ],
  'POST /v1/approval-links/decide': [
    {
      kind: 'approval',
      note: 'an altered link: refused with any key or none',
      right: ['*'],
      wrong: ['keys'],
      request: (f) => ({
        url: '/v1/approval-links/decide',
        body: { token: `${f.approvalLink.slice(0, -4)}AAAA`, decision: 'approved' },
      }),
      expect: open({
        status: 403,
        body: {
          error: {
            code: 'APPROVAL_LINK_INVALID',
            message: 'The approval link is not valid: it is malformed, altered, or expired.',
            details: {},
          },
        },
      }),
    },
  ],
  'POST /v1/workflows/{id}/hook/rotate': [
    {
      kind: 'hook',
      ...WORKFLOWS,
      request: (f) => ({ url: `/v1/workflows/${f.webhook}/hook/rotate` }),
      expect: owned(
        lacks('workflows'),
        NO_DEFINITION,
        ok(200, (j) => expect(j.signing_secret).toMatch(/^whsec_/)),
      ),
    },
  ],
  'POST /v1/hooks/{hook_id}': [
    {
      kind: 'hook',
      note: 'the signature is the right: the same answer with any key or none',
      right: ['*'],
      wrong: ['keys'],
      request: (f, who) => {
        const body = JSON.stringify({ from: who });
        return {
          url: f.hook.path,
          body,
          headers: { 'x-skillflow-signature': signatureHeader(f.hook.secret, body) },
        };
      },
      expect: open(ok(202, (j) => expect(j.task_id).toMatch(/^task_/))),
    },
  ],
  'GET /v1/workflows': [
    {
      kind: 'definition',
      ...WORKFLOWS,
      request: () => ({ url: '/v1/workflows' }),
      expect: unowned(
        lacks('workflows'),
        ok(200, (j, f) => expect(ids(j.workflows)).toContain(f.definition)),
        ok(200, (j, f) => expect(ids(j.workflows)).not.toContain(f.definition)),
      ),
    },
  ],
  'POST /v1/workflows/validate': [
    {
      kind: 'definition',
      ...WORKFLOWS,
      request: () => ({ url: '/v1/workflows/validate', body: MANUAL_DEFINITION, contentType: YAML }),
      expect: unowned(
        lacks('workflows'),
        ok(200, (j) => expect(j.valid).toBe(true)),
      ),
    },
  ],
  'GET /v1/workflows/{id}': [
    definitionCase(
      (f) => `/v1/workflows/${f.definition}`,
      ok(200, (j, f) => expect(j.id).toBe(f.definition)),
    ),
  ],
  'PUT /v1/workflows/{id}': [
    definitionCase(
      (f) => `/v1/workflows/${f.definition}`,
      ok(200, (j, f) => expect(j.id).toBe(f.definition)),
      { body: MANUAL_DEFINITION, contentType: YAML },
    ),
  ],
  'DELETE /v1/workflows/{id}': [definitionCase((f) => `/v1/workflows/${f.deletable}`, ok(204))],
  'POST /v1/workflows/{id}/runs': [
    definitionCase(
      (f) => `/v1/workflows/${f.definition}/runs`,
      ok(202, (j) => expect(j.task_id).toMatch(/^task_/)),
      { body: { inputs: {} } },
    ),
  ],
  'GET /v1/workflows/{id}/runs': [
    definitionCase(
      (f) => `/v1/workflows/${f.definition}/runs`,
      ok(200, (j, f) => expect(j.runs.map((r: { task_id: string }) => r.task_id)).toContain(f.runTask)),
    ),
  ],
  'GET /v1/runs': [
    {
      kind: 'definition',
      note: 'runs of every definition: owner B sees only its own',
      ...WORKFLOWS,
      request: () => ({ url: '/v1/runs?limit=100' }),
      expect: unowned(
        lacks('workflows'),
        ok(200, (j, f) => expect(j.runs.map((r: { task_id: string }) => r.task_id)).toContain(f.runTask)),
        ok(200, (j, f) => expect(j.runs.map((r: { task_id: string }) => r.task_id)).not.toContain(f.runTask)),
      ),
    },
  ],
  ...Object.fromEntries(
    ['pause', 'resume', 'trigger'].map((op) => [
      `POST /v1/workflows/{id}/schedule/${op}`,
      [definitionCase((f) => `/v1/workflows/${f.scheduled}/schedule/${op}`, ok(200))],
    ]),
  ),
  'POST /v1/workflows/{id}/schedule/backfill': [
    definitionCase(
      (f) => `/v1/workflows/${f.scheduled}/schedule/backfill`,
      ok(202, (j) => expect(j.ticks).toBe(1)),
      { body: ONE_DAILY_TICK },
    ),
  ],
  'GET /v1/tasks/{task_id}': taskCases('', 200),
  'POST /v1/tasks/{task_id}/cancel': taskCases('/cancel', 202),
  'GET /v1/apps/{app_id}': [catalogue('/v1/apps/hosting')],
  'GET /v1/apps/{app_id}/skills/{skill_id}': [catalogue('/v1/apps/hosting/skills/search_domains')],
  'GET /v1/apps/{app_id}/skills/{skill_id}/details': [
    catalogue('/v1/apps/hosting/skills/search_domains/details'),
  ],
  'POST /v1/apps/design/skills/search_icons': [
    skillCall('design', 'search_icons', { requests: [{ query: 'home', limit: 1 }] }, 200),
  ],
  'POST /v1/apps/electronics/skills/search_power_designs': [
    skillCall('electronics', 'search_power_designs', POWER_SEARCH, 202),
  ],
  'POST /v1/apps/electronics/skills/get_power_design': [
    {
      ...skillCall('electronics', 'get_power_design', undefined, 202),
      request: (f) => ({
        url: '/v1/apps/electronics/skills/get_power_design',
        body: { requests: [{ solution_id: f.solutionId }] },
      }),
    },
  ],
  'POST /v1/apps/encyclopedia/skills/search_articles': [
    skillCall('encyclopedia', 'search_articles', { requests: [{ query: 'Mercury', language: 'en' }] }, 200),
  ],
  'POST /v1/apps/encyclopedia/skills/get_summary': [
    skillCall('encyclopedia', 'get_summary', { requests: [{ title: 'Mercury', language: 'en' }] }, 200),
  ],
  'POST /v1/apps/hosting/skills/search_domains': [
    skillCall('hosting', 'search_domains', { requests: [{ query: 'cedar', tlds: ['com'] }] }, 200),
    {
      kind: 'team',
      note: "billed to owner A's team: owner B is no member",
      right: ['app:hosting'],
      wrong: ['workflows'],
      request: () => ({
        url: `/v1/apps/hosting/skills/search_domains?team_id=${TEAM_ID}`,
        body: { requests: [{ query: 'cedar', tlds: ['com'] }] },
      }),
      expect: owned(notScopedTo('hosting', 'search_domains'), notFound('No team with this id.'), ok(200)),
    },
  ],
  'GET /v1/apps/design/icons/upstream/{prefix}/{file}': [
    {
      kind: 'public',
      note: 'a sanitised icon for <img src>',
      right: ['*'],
      wrong: ['keys'],
      request: () => ({ url: '/v1/apps/design/icons/upstream/mdi/home.svg' }),
      expect: open(ok(200, (body) => expect(String(body)).toMatch(/^<svg /))),
    },
  ],
  'POST /v1/keys': [
    {
      kind: 'key',
      note: "owner B's new key is its own",
      right: ['keys'],
      wrong: ['workflows'],
      request: () => ({ url: '/v1/keys', body: { name: 'minted', scopes: ['keys'] } }),
      expect: unowned(
        lacks('keys'),
        ok(201, (j) => expect(j.scopes).toEqual(['keys'])),
      ),
    },
  ],
  'GET /v1/keys': [
    {
      kind: 'key',
      right: ['keys'],
      wrong: ['workflows'],
      request: () => ({ url: '/v1/keys' }),
      expect: unowned(
        lacks('keys'),
        ok(200, (j, f) => expect(ids(j.keys)).toContain(f.key)),
        ok(200, (j, f) => expect(ids(j.keys)).not.toContain(f.key)),
      ),
    },
  ],
  'DELETE /v1/keys/{key_id}': [
    {
      kind: 'key',
      right: ['keys'],
      wrong: ['workflows'],
      request: (f) => ({ url: `/v1/keys/${f.key}` }),
      expect: owned(lacks('keys'), notFound('No active key with this id.'), ok(204)),
    },
  ],
  'POST /v1/sessions': [
    {
      kind: 'key',
      note: 'any key signs the workspace in as itself',
      right: ['app:hosting'],
      wrong: ['workflows'],
      request: () => ({ url: '/v1/sessions' }),
      expect: unowned(
        ok(201),
        ok(201, (j) => expect(j.session.current).toBe(true)),
      ),
    },
  ],
  'POST /v1/sessions/sign-in-links': [
    {
      kind: 'key',
      note: 'any key makes a link that signs in as itself',
      right: ['app:hosting'],
      wrong: ['workflows'],
      request: () => ({ url: '/v1/sessions/sign-in-links' }),
      expect: unowned(
        ok(201),
        ok(201, (j) => expect(j.url).toMatch(/#sign-in\/sic_/)),
      ),
    },
  ],
  'GET /v1/sessions/current': [
    {
      kind: 'key',
      note: 'a key is no session',
      right: ['*'],
      wrong: ['workflows'],
      request: () => ({ url: '/v1/sessions/current' }),
      expect: unowned(NO_SESSION, NO_SESSION),
    },
  ],
  'DELETE /v1/sessions/current': [
    {
      kind: 'key',
      note: 'a key is no session',
      right: ['*'],
      wrong: ['workflows'],
      request: () => ({ url: '/v1/sessions/current' }),
      expect: unowned(NO_SESSION, NO_SESSION),
    },
  ],
  'GET /v1/sessions': [
    {
      kind: 'key',
      right: ['keys'],
      wrong: ['workflows'],
      request: () => ({ url: '/v1/sessions' }),
      expect: unowned(
        lacks('keys'),
        ok(200, (j, f) => expect(j.sessions.map((s: any) => s.session_id)).toContain(f.session)),
        ok(200, (j, f) => expect(j.sessions.map((s: any) => s.session_id)).not.toContain(f.session)),
      ),
    },
  ],
  'DELETE /v1/sessions/{session_id}': [
    {
      kind: 'key',
      right: ['keys'],
      wrong: ['workflows'],
      request: (f) => ({ url: `/v1/sessions/${f.session}` }),
      expect: owned(lacks('keys'), notFound('No active session with this id.'), ok(204)),
    },
  ],
  'POST /v1/sessions/exchange': [
    {
      kind: 'public',
      note: 'the code is the right: an unknown one is refused whoever asks',
      right: ['*'],
      wrong: ['keys'],
      request: () => ({ url: '/v1/sessions/exchange', body: { code: `sic_${'A'.repeat(43)}` } }),
      expect: open({
        status: 401,
        body: envelope(
          'UNAUTHENTICATED',
          'This sign-in link is unknown, used or expired; ask for a new one.',
        ),
      }),
    },
  ],
  'GET /v1/usage': [
    {
      kind: 'usage',
      note: 'any key reads its own records',
      right: ['app:hosting'],
      wrong: ['workflows'],
      request: () => ({ url: '/v1/usage' }),
      expect: unowned(ok(200), ok(200, ownRecords(OWNER_A)), ok(200, ownRecords(OWNER_B))),
    },
    {
      kind: 'team',
      note: "owner A's team: any member may read, owner B is no member",
      right: ['app:hosting'],
      wrong: ['workflows'],
      request: () => ({ url: `/v1/usage?team_id=${TEAM_ID}` }),
      expect: owned(
        ok(200),
        notFound('No team with this id.'),
        ok(200, (j) => {
          expect(j.records.length).toBeGreaterThan(0);
          for (const r of j.records) expect(r.billed_to).toEqual({ type: 'team', id: TEAM_ID });
        }),
      ),
    },
  ],
  'GET /v1/embeds/{embed_id}/file': [
    {
      kind: 'embed',
      right: ['app:electronics'],
      wrong: ['workflows'],
      request: (f) => ({ url: `/v1/embeds/${f.embed}/file?format=full` }),
      expect: owned(
        notScopedTo('electronics', 'search_power_designs'),
        notFound('No embed with this id.'),
        ok(200, (j, f) => expect(j.embed_id).toBe(f.embed)),
      ),
    },
  ],
  'POST /v1/assets/download-links': [
    {
      kind: 'embed',
      right: ['app:electronics'],
      wrong: ['workflows'],
      request: (f) => ({ url: '/v1/assets/download-links', body: { embed_id: f.embed } }),
      expect: owned(
        notScopedTo('electronics', 'search_power_designs'),
        notFound('No embed with this id.'),
        ok(200, (j) => expect(j.url).toMatch(/\/v1\/assets\/download\/v2\.[^/]+$/)),
      ),
    },
  ],
  'GET /v1/assets/download/{token}': [
    {
      kind: 'public',
      note: 'the link is the credential: an altered one is refused with any key or none',
      right: ['*'],
      wrong: ['keys'],
      request: () => ({ url: '/v1/assets/download/v2.x.y' }),
      expect: open({
        status: 403,
        body: envelope(
          'DOWNLOAD_LINK_INVALID',
          'The download link is not valid: it is malformed or altered, the API key that asked for it was revoked, or that caller may no longer read the asset.',
        ),
      }),
    },
  ],
  // The list and the messages first: owner B has never used the chat id when it asks.
  'GET /v1/chats': [
    {
      kind: 'chat',
      note: "each owner lists its own chats: owner A's delivered chat is not in owner B's list",
      ...WORKFLOWS,
      request: () => ({ url: '/v1/chats' }),
      expect: unowned(
        lacks('workflows'),
        ok(200, (j) => expect(j.chats.map((c: { chat_id: string }) => c.chat_id)).toContain(CHAT_ID)),
        ok(200, (j) => expect(j.chats.map((c: { chat_id: string }) => c.chat_id)).not.toContain(CHAT_ID)),
      ),
    },
  ],
  'POST /v1/chats/messages': [
    chatCase(
      '/v1/chats/messages',
      {},
      notFound('No chat with this id.'),
      // Sealed to owner A's chat key: no plaintext in the answer.
      ok(200, (j, f) => {
        expect(j.messages.length).toBeGreaterThan(0);
        for (const m of j.messages) {
          expect(m.title).toBeUndefined();
          expect(m.sealed.map((c: { key_id: string }) => c.key_id)).toEqual([f.chatKey]);
        }
      }),
    ),
  ],
  'POST /v1/chats/keys': [
    {
      kind: 'chat',
      note: "owner A's key again answers 200; owner B registering the same public key gets a key of its own",
      ...WORKFLOWS,
      request: (f) => ({ url: '/v1/chats/keys', body: { public_key: f.chatPublicKey } }),
      expect: unowned(
        lacks('workflows'),
        ok(200, (j, f) => expect(j.key_id).toBe(f.chatKey)),
        ok(201, (j, f) => expect(j.key_id).not.toBe(f.chatKey)),
      ),
    },
  ],
  'GET /v1/chats/keys': [
    {
      kind: 'chat',
      note: 'each owner lists its own chat keys',
      ...WORKFLOWS,
      request: () => ({ url: '/v1/chats/keys' }),
      expect: unowned(
        lacks('workflows'),
        ok(200, (j, f) => expect(j.keys.map((k: { key_id: string }) => k.key_id)).toContain(f.chatKey)),
        ok(200, (j, f) => expect(j.keys.map((k: { key_id: string }) => k.key_id)).not.toContain(f.chatKey)),
      ),
    },
  ],
  'DELETE /v1/chats/keys/{key_id}': [
    {
      kind: 'chat',
      ...WORKFLOWS,
      request: (f) => ({ url: `/v1/chats/keys/${f.chatKey}` }),
      expect: owned(lacks('workflows'), notFound('No chat key with this id.'), ok(204)),
    },
  ],
  'POST /v1/chats': [chatCase('/v1/chats', { focus_mode_off: true }, OWN_CHAT, ok(200, chatState(true)))],
  'POST /v1/chats/webhook': [
    chatCase('/v1/chats/webhook', { url: null }, OWN_CHAT, ok(200, chatState(false))),
  ],
  'POST /v1/apps/workspace/results': [
    {
      kind: 'workspace-result',
      note: "owner B's upload under the same root id is its own, owner A's is replaced",
      right: ['skill:workspace.results'],
      wrong: ['workflows'],
      request: (f, who) => ({
        url: '/v1/apps/workspace/results',
        body: workspaceUpload(who === 'other' ? OWNER_B : OWNER_A, f.rootId),
      }),
      expect: unowned(notScopedTo('workspace', 'results'), ok(200), ok(201)),
    },
  ],
  ...Object.fromEntries(
    [
      ['search', 'search_articles', 'query=Mercury&language=en'],
      ['summary', 'get_summary', 'title=Mercury&language=en'],
    ].map(([route, skill, query]) => [
      `GET /v1/encyclopedia/${route}`,
      [
        {
          kind: 'usage',
          note: 'a lookup billed to the caller',
          right: ['app:encyclopedia'],
          wrong: ['workflows'],
          request: () => ({ url: `/v1/encyclopedia/${route}?${query}` }),
          expect: unowned(notScopedTo('encyclopedia', skill!), ok(200)),
        } satisfies Case,
      ],
    ]),
  ),
  'GET /v1/encyclopedia/thumbnail': [
    {
      kind: 'public',
      note: 'an image for <img src>',
      right: ['*'],
      wrong: ['keys'],
      request: (f) => ({ url: f.thumbnail }),
      expect: open(ok(200)),
    },
  ],
};

/** Public routes the document deliberately leaves out: guests, the document itself. */
export const UNDOCUMENTED: Record<string, Case[]> = {
  'GET /v1/openapi.json': [
    {
      kind: 'public',
      right: ['*'],
      wrong: ['keys'],
      request: () => ({ url: '/v1/openapi.json' }),
      expect: open(ok(200, (j) => expect(j.openapi).toBe('3.1.0'))),
    },
  ],
  'GET /v1/anonymous/apps': [
    {
      kind: 'public',
      right: ['*'],
      wrong: ['keys'],
      request: () => ({ url: '/v1/anonymous/apps' }),
      expect: open(ok(200, (j) => expect(ids(j.apps)).toContain('hosting'))),
    },
  ],
  'GET /v1/anonymous/apps/{app_id}/skills/{skill_id}/details': [
    {
      kind: 'public',
      right: ['*'],
      wrong: ['keys'],
      request: () => ({ url: '/v1/anonymous/apps/hosting/skills/search_domains/details' }),
      expect: open(ok(200)),
    },
  ],
  'GET /v1/anonymous/free-usage/status': [
    {
      kind: 'public',
      right: ['*'],
      wrong: ['keys'],
      request: () => ({ url: '/v1/anonymous/free-usage/status' }),
      expect: open(ok(200)),
    },
  ],
  ...Object.fromEntries(
    ['', '/quote'].map((suffix) => [
      `POST /v1/anonymous/apps/{app_id}/skills/{skill_id}${suffix}`,
      [
        {
          kind: 'public',
          note: 'a guest call: a key changes nothing',
          right: ['*'],
          wrong: ['keys'],
          request: () => ({
            url: `/v1/anonymous/apps/hosting/skills/search_domains${suffix}`,
            body: { requests: [{ query: 'cedar', tlds: ['com'] }] },
            headers: GUEST,
          }),
          expect: open(ok(200)),
        } satisfies Case,
      ],
    ]),
  ),
};
