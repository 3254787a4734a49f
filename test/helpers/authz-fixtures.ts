/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are read field by field in tests. */
/**
 * What the authorisation matrix needs on a running stack: API keys of two owners with chosen
 * scopes (written straight into the shared PostgreSQL store, as `npm run keys:admin` does, since
 * no route creates a key for another owner), and one real object of every kind for owner A,
 * created through the API: definitions (manual, scheduled, one to delete, two with webhook
 * triggers), a workflow run that
 * delivers a chat message (to a chat with a webhook), a long-running skill call with its task
 * and embed, a key to revoke, a workspace result and a team.
 */
import { expect } from 'vitest';
import { createKey, type Scope } from '../../lib/keys.js';
import type { Store } from '../../lib/store/db.js';
import { generateChatKeyPair } from '../../sdk/index.js';

export const OWNER_A = 'owner_a';
export const OWNER_B = 'owner_b';
export const CHAT_ID = 'authz-chat';
export const TEAM_ID = 'team_authz';

/** A manual definition whose one step delivers a chat message (needs only `workflows`). */
export const MANUAL_DEFINITION = `title: Authz chat
start_when:
  manual: {}
steps:
  - id: notify
    send_chat_message:
      title: Hello
      message: hi
      chat_id: ${CHAT_ID}
`;

/** Two approvals side by side: one is decided by the matrix, the other keeps the run listed. */
const APPROVAL_DEFINITION = `title: Authz approval
start_when:
  manual: {}
steps:
  - id: both
    parallel:
      steps:
        - id: first
          wait_for_approval: { title: First, timeout: 1h }
        - id: second
          wait_for_approval: { title: Second, timeout: 1h }
`;

/** A webhook definition (one step that needs only `workflows`). */
const WEBHOOK_DEFINITION = `title: Authz webhook
start_when:
  webhook: {}
steps:
  - id: notify
    send_chat_message: { title: Hooked, message: hooked, chat_id: ${CHAT_ID} }
`;

const SCHEDULED_DEFINITION = `title: Authz schedule
start_when:
  schedule:
    every: 1d
    timezone: UTC
steps:
  - id: notify
    send_chat_message: { title: Tick, message: tick }
`;

/** One electronics search: a long-running skill call (task and embed). */
export const POWER_SEARCH = { requests: [{ vinMin: 10, vinMax: 20, vout: [5], iout: [1] }] };

/** A workspace upload for `root_id` meant for `ownerId`. */
export function workspaceUpload(ownerId: string, rootId: string) {
  return {
    expected_user_id: ownerId,
    root_id: rootId,
    key_id: 'browser-key-1',
    algorithm: 'AES-256-GCM',
    root: { iv: 'AAAAAAAAAAAAAAAA', ciphertext: 'c2VjcmV0' },
    children: [],
  };
}

/** Owner A's objects, by kind. */
export interface Fixtures {
  definition: string;
  scheduled: string;
  deletable: string;
  runTask: string;
  /** A run waiting for its approvals `first` and `second`. */
  approvalRun: string;
  /** The token of the link to the run's `second` approval. */
  approvalLink: string;
  skillTask: string;
  embed: string;
  /** A design id from the embed's search result. */
  solutionId: string;
  key: string;
  /** A workspace session of owner A (signed in with its `*` key). */
  session: string;
  /** Owner A's chat key (registered before its runs deliver, so their messages are sealed to it). */
  chatKey: string;
  chatPublicKey: string;
  rootId: string;
  /** The thumbnail route's URL for an article's picture. */
  thumbnail: string;
  /** A webhook definition whose secret the matrix rotates. */
  webhook: string;
  /** Another webhook definition's hook path and signing secret, for signed requests. */
  hook: { path: string; secret: string };
}

/** One HTTP call to the stack; `token` null sends no Authorization header. */
export type Call = (
  method: string,
  url: string,
  token: string | null,
  body?: unknown,
  contentType?: string,
  headers?: Record<string, string>,
) => Promise<{ status: number; json: any }>;

export function caller(baseUrl: string): Call {
  return async (method, url, token, body, contentType, headers = {}) => {
    const payload = body === undefined || typeof body === 'string' ? body : JSON.stringify(body);
    const res = await fetch(baseUrl + url, {
      method,
      headers: {
        ...headers,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(payload !== undefined ? { 'content-type': contentType ?? 'application/json' } : {}),
      },
      ...(payload !== undefined ? { body: payload } : {}),
      redirect: 'manual',
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, json };
  };
}

/** Keys per owner and scope set, created once each. */
export class Keys {
  private readonly made = new Map<string, string>();
  constructor(private readonly store: Store) {}

  async token(ownerId: string, scopes: readonly Scope[]): Promise<string> {
    const id = `${ownerId}|${scopes.join(',')}`;
    let token = this.made.get(id);
    if (!token) {
      const key = await createKey(this.store, { name: id, scopes: [...scopes], ownerId, tier: 'pro' });
      token = key.token;
      this.made.set(id, token);
    }
    return token;
  }
}

async function waitForTask(call: Call, token: string, taskId: string): Promise<any> {
  const until = Date.now() + 60_000;
  let last: unknown;
  while (Date.now() < until) {
    const res = await call('GET', `/v1/tasks/${taskId}`, token);
    last = res.json;
    if (res.status === 200 && res.json.status === 'completed') return res.json;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`task did not complete: ${JSON.stringify(last)}`);
}

/** Waits until both approvals of the run are listed (visibility follows the run shortly). */
async function waitForApprovals(call: Call, token: string, runId: string): Promise<any[]> {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    const res = await call('GET', '/v1/approvals', token);
    const listed = res.json.approvals?.filter((a: any) => a.run_id === runId) ?? [];
    if (listed.length === 2) return listed;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the approvals were never listed');
}

/** Creates owner A's objects through the API (the team straight in the store: no route makes one). */
export async function createFixtures(call: Call, keys: Keys, store: Store): Promise<Fixtures> {
  const all = await keys.token(OWNER_A, ['*']);
  const created = async (url: string, body: unknown, status: number, contentType?: string) => {
    const res = await call('POST', url, all, body, contentType);
    expect([url, res.status], JSON.stringify(res.json)).toEqual([url, status]);
    return res.json;
  };
  // Chat messages are sealed to the owner's chat keys: without one, a run's chat step fails.
  const chatPublicKey = (await generateChatKeyPair()).publicKey;
  const chatKey = (await created('/v1/chats/keys', { public_key: chatPublicKey, label: 'authz' }, 201))
    .key_id;
  const definition = (await created('/v1/workflows', MANUAL_DEFINITION, 201, 'application/yaml')).id;
  const scheduled = (await created('/v1/workflows', SCHEDULED_DEFINITION, 201, 'application/yaml')).id;
  const deletable = (await created('/v1/workflows', MANUAL_DEFINITION, 201, 'application/yaml')).id;
  const runTask = (await created(`/v1/workflows/${definition}/runs`, { inputs: {} }, 202)).task_id;
  const approvals = (await created('/v1/workflows', APPROVAL_DEFINITION, 201, 'application/yaml')).id;
  const approvalRun = (await created(`/v1/workflows/${approvals}/runs`, { inputs: {} }, 202)).task_id;
  const power = await created('/v1/apps/electronics/skills/search_power_designs', POWER_SEARCH, 202);
  const key = (await created('/v1/keys', { name: 'to revoke', scopes: ['keys'] }, 201)).id;
  const session = (await created('/v1/sessions', undefined, 201)).session.session_id;
  const rootId = 'root_authz_a';
  await created('/v1/apps/workspace/results', workspaceUpload(OWNER_A, rootId), 201);
  await store.db.insertInto('teams').values({ id: TEAM_ID, name: 'Authz' }).execute();
  await store.db
    .insertInto('team_members')
    .values({ team_id: TEAM_ID, owner_id: OWNER_A, role: 'member', can_spend: true })
    .execute();
  const summary = await call('GET', '/v1/encyclopedia/summary?title=Alan%20Turing&language=en', all);
  expect(summary.status, JSON.stringify(summary.json)).toBe(200);
  await waitForTask(call, all, runTask);
  // Set after the run delivered its message (a loopback receiver: WEBHOOK_ALLOW_LOOPBACK).
  const hook = await call('POST', '/v1/chats/webhook', all, {
    chat_id: CHAT_ID,
    url: 'http://127.0.0.1:9/hook',
  });
  expect([hook.status, hook.json.webhook_configured]).toEqual([200, true]);
  await waitForTask(call, all, power.task_id);
  const embed = await call('GET', `/v1/embeds/${power.embed_id}/file?format=original`, all);
  expect(embed.status, JSON.stringify(embed.json)).toBe(200);
  const webhook = (await created('/v1/workflows', WEBHOOK_DEFINITION, 201, 'application/yaml')).id;
  const signed = (await created('/v1/workflows', WEBHOOK_DEFINITION, 201, 'application/yaml')).hook;
  const waiting = await waitForApprovals(call, all, approvalRun);
  const second = waiting.find((a) => a.step_id === 'second');
  return {
    definition,
    scheduled,
    deletable,
    runTask,
    approvalRun,
    approvalLink: second.link.replace(/^\/#approve\//, ''),
    skillTask: power.task_id,
    embed: power.embed_id,
    solutionId: firstSolutionId(embed.json),
    key,
    session,
    chatKey,
    chatPublicKey,
    rootId,
    thumbnail: summary.json.thumbnail.url,
    webhook,
    hook: { path: new URL(signed.url).pathname, secret: signed.signing_secret },
  };
}

/** The first `solution_id` anywhere in a search result. */
function firstSolutionId(output: unknown): string {
  const found = /"solution_id":"([^"]+)"/.exec(JSON.stringify(output));
  if (!found) throw new Error('the power search found no design');
  return found[1]!;
}
