/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/** A real Temporal dev server, the API and (optionally) a worker with the fixture apps + chat delivery. */
import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { RawConfig } from '../../lib/config.js';
import { openJson } from '../../lib/crypto/sealed-value.js';
import type { SecretStore } from '../../lib/secrets.js';
import { sealedCell } from '../../lib/store/sealed-columns.js';
import type { ChatMessagesTable } from '../../lib/store/schema.js';
import { createKey } from '../../lib/keys.js';
import { startWorker, type RunningWorker } from '../../worker/index.js';
import { buildTestApi, type TestApi } from './api.js';
import { startTestTemporal, TEST_KEYRING } from './temporal.js';
import type { AppDefinition } from '../../activities/registry/define.js';

type ChatMessageRow = { [K in keyof ChatMessagesTable]: unknown } & {
  chat_id: string;
  content_sealed: string | null;
};

export interface EngineHarness {
  env: TestWorkflowEnvironment;
  api: TestApi;
  taskQueue: string;
  token: string;
  otherToken: string;
  worker: RunningWorker | undefined;
  startWorker(): Promise<RunningWorker>;
  request(
    method: string,
    url: string,
    body?: unknown,
    contentType?: string,
    token?: string,
  ): Promise<{ status: number; json: any; body: string }>;
  waitForTask(taskId: string, until: (t: any) => boolean, ms?: number): Promise<any>;
  /** The chat message a run stored (sealed row plus decrypted content), or undefined. */
  chatMessage(
    taskId: string,
  ): Promise<{ row: ChatMessageRow; content: { title: string; message: string } } | undefined>;
  close(): Promise<void>;
}

export async function startEngine(
  opts: {
    worker?: boolean;
    config?: Partial<RawConfig>;
    /** The catalogue to serve; the fixture apps by default. */
    apps?: readonly AppDefinition[];
    secrets?: SecretStore;
    databaseUrl?: string;
  } = {},
): Promise<EngineHarness> {
  const env = await startTestTemporal();
  const taskQueue = `engine-${randomUUID()}`;
  const api = await buildTestApi(env, {
    taskQueue,
    ...(opts.config ? { config: opts.config } : {}),
    ...(opts.apps ? { apps: opts.apps } : {}),
    ...(opts.secrets ? { secrets: opts.secrets } : {}),
    ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}),
  });
  const { token } = await createKey(api.deps.store, { name: 'test', scopes: ['*'], ownerId: 'owner_a' });
  const { token: otherToken } = await createKey(api.deps.store, {
    name: 'other',
    scopes: ['*'],
    ownerId: 'owner_b',
  });
  const h: EngineHarness = {
    env,
    api,
    taskQueue,
    token,
    otherToken,
    worker: undefined,
    async startWorker() {
      h.worker = await startWorker(api.platform, { address: env.address });
      return h.worker;
    },
    async request(method, url, body, contentType, tok = token) {
      const payload = typeof body === 'string' || body === undefined ? body : JSON.stringify(body);
      const res = await api.app.inject({
        method: method as 'GET',
        url,
        headers: {
          authorization: `Bearer ${tok}`,
          ...(payload !== undefined ? { 'content-type': contentType ?? 'application/json' } : {}),
        },
        ...(payload !== undefined ? { payload } : {}),
      });
      let json: unknown = undefined;
      try {
        json = res.json();
      } catch {
        // not JSON (204)
      }
      return { status: res.statusCode, json, body: res.body };
    },
    async waitForTask(taskId, until, ms = 30_000) {
      const deadline = Date.now() + ms;
      let last: unknown;
      while (Date.now() < deadline) {
        const res = await h.request('GET', `/v1/tasks/${taskId}`);
        last = res.json;
        if (res.status === 200 && until(res.json)) return res.json;
        await new Promise((r) => setTimeout(r, 150));
      }
      throw new Error(`task ${taskId} did not reach the expected state; last: ${JSON.stringify(last)}`);
    },
    async chatMessage(taskId) {
      const row = await api.deps.store.db
        .selectFrom('chat_messages')
        .selectAll()
        .where('task_id', '=', taskId)
        .executeTakeFirst();
      return (
        row && {
          row,
          content: openJson<{ title: string; message: string }>(
            TEST_KEYRING,
            row.content_sealed!,
            sealedCell.chatMessage(row.id, row.owner_id),
          ),
        }
      );
    },
    async close() {
      await h.worker?.shutdown();
      await api.close();
      await env.teardown();
    },
  };
  if (opts.worker !== false) await h.startWorker();
  return h;
}
