/**
 * The at-scale topology: the API and the worker as separate processes (`npm run start:api`,
 * `npm run start:worker`) sharing a real PostgreSQL platform store and one Temporal server.
 * Health sees the other process's worker; a run started through the API is executed by the
 * worker process, which writes the chat message into the shared store. Two API processes that
 * take the tier limit from their own leases of the shared counter admit exactly the limit
 * together.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config.js';
import { createKey } from '../../lib/keys.js';
import { openStore } from '../../lib/store/db.js';
import { freePort } from '../helpers/ports.js';
import { postgresAvailable, startTestPostgres, type TestPostgres } from '../helpers/postgres.js';
import { startTestTemporal } from '../helpers/temporal.js';

const KEY = 'prod:' + Buffer.alloc(32, 9).toString('base64');

function spawnPart(env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'scripts/main.ts')], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return { child, output: () => out };
}

async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  child.kill('SIGTERM');
  for (let i = 0; i < 200 && child.exitCode === null; i++) await sleep(100);
  return child.exitCode;
}

describe.runIf(process.env.CI === 'true' || postgresAvailable())(
  'API and worker as separate processes',
  () => {
    let pg: TestPostgres;
    let env: TestWorkflowEnvironment;
    let dataDir: string;
    const parts: ChildProcess[] = [];

    beforeAll(async () => {
      pg = await startTestPostgres();
      env = await startTestTemporal();
      dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillflow-split-'));
    });
    afterAll(async () => {
      for (const p of parts) await stop(p);
      await env?.teardown();
      pg?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    /** The environment every process of these tests shares, listening on `port`. */
    const commonEnv = (port: number) => ({
      DATABASE_URL: pg.url,
      TEMPORAL_ADDRESS: env.address,
      SKILLFLOW_ENCRYPTION_KEY: KEY,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      PORT: String(port),
      // These tests poll health faster than the public per-IP limit allows.
      PUBLIC_RATE_LIMIT_PER_MINUTE: '0',
      // The test reads the delivered message back from the store as plaintext.
      CHAT_SERVER_SEALED: 'true',
    });

    it('serves health, runs a workflow across processes and stops cleanly', async () => {
      const port = await freePort();
      const common = commonEnv(port);
      const worker = spawnPart({ ...common, RUN_API: 'false', RUN_WORKER: 'true' });
      const api = spawnPart({ ...common, RUN_API: 'true', RUN_WORKER: 'false' });
      parts.push(worker.child, api.child);

      let health: { status?: string } = {};
      for (let i = 0; i < 240 && health.status !== 'up'; i++) {
        if (api.child.exitCode !== null || worker.child.exitCode !== null)
          throw new Error(`a part exited:\n${api.output()}\n${worker.output()}`);
        health = (await fetch(`http://127.0.0.1:${port}/v1/health`).then(
          (r) => r.json(),
          () => ({}),
        )) as typeof health;
        if (health.status !== 'up') await sleep(250);
      }
      expect(health).toEqual({ status: 'up' });
      // Each part's banner says what it runs: the worker names its queue and server, no API address.
      for (let i = 0; i < 200 && !(worker.output() + api.output()).match(/Press Ctrl-C[^]*Press Ctrl-C/); i++)
        await sleep(100);
      expect(worker.output()).toContain(
        [
          'skillflow worker is running (no API in this process; nothing listens):',
          '  Task queue    skillflow',
          `  Temporal      ${env.address} (namespace default)`,
          '  Data          PostgreSQL via DATABASE_URL',
          'Press Ctrl-C to stop.',
        ].join('\n'),
      );
      expect(worker.output()).not.toContain(`:${port}`);
      expect(api.output()).toContain('skillflow API is running (no worker in this process):');
      expect(api.output()).toMatch(new RegExp(`  Listening     [0-9.]+:${port}\n`));

      const store = await openStore({ databaseUrl: pg.url, migrate: false });
      try {
        const ops = await createKey(store, { name: 'ops', scopes: ['admin'], ownerId: 'owner_ops' });
        const details = await fetch(`http://127.0.0.1:${port}/v1/health/details`, {
          headers: { authorization: `Bearer ${ops.token}` },
        }).then((r) => r.json());
        expect(details).toMatchObject({
          status: 'ok',
          checks: { store: { status: 'up', engine: 'postgres' }, worker: { status: 'up' } },
        });
        const { token } = await createKey(store, { name: 'ops', scopes: ['*'], ownerId: 'owner_dev' });
        const auth = { authorization: `Bearer ${token}` };
        // The API process loaded definitions/examples for owner_dev at start.
        let list: { workflows?: { id: string }[] } = {};
        for (let i = 0; i < 100 && !list.workflows?.some((w) => w.id === 'wf_file_domain_ideas'); i++) {
          list = (await fetch(`http://127.0.0.1:${port}/v1/workflows`, { headers: auth }).then((r) =>
            r.json(),
          )) as typeof list;
          await sleep(100);
        }
        const run = (await fetch(`http://127.0.0.1:${port}/v1/workflows/wf_file_domain_ideas/runs`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: '{}',
        }).then((r) => r.json())) as { task_id: string };
        let task: { status?: string; result?: { outputs: { search: { result_count: number } } } } = {};
        for (let i = 0; i < 200 && !['completed', 'failed'].includes(task.status ?? ''); i++) {
          await sleep(150);
          task = (await fetch(`http://127.0.0.1:${port}/v1/tasks/${run.task_id}`, { headers: auth }).then(
            (r) => r.json(),
          )) as typeof task;
        }
        expect(task.status).toBe('completed');
        const count = task.result!.outputs.search.result_count;
        const msg = await store.db
          .selectFrom('chat_messages')
          .selectAll()
          .where('task_id', '=', run.task_id)
          .executeTakeFirstOrThrow();
        expect(msg.chat_id).toBe('workflow:wf_file_domain_ideas');
        expect(msg.content_sealed).not.toContain(`${count} domains found`);
      } finally {
        await store.close();
      }
      expect(await stop(api.child)).toBe(0);
      expect(await stop(worker.child)).toBe(0);
    }, 180_000);

    it('two API processes on one store admit exactly the tier limit together, however they lease it', async () => {
      // The store's recorded standard limit (120 a minute, leases of 4 tokens): every process on a
      // store must run with the limits recorded in it.
      const limit = 120;
      const ports = [await freePort(), await freePort()];
      const apis = ports.map((port) =>
        spawnPart({ ...commonEnv(port), RUN_API: 'true', RUN_WORKER: 'false' }),
      );
      parts.push(...apis.map((a) => a.child));
      for (const [i, port] of ports.entries()) {
        let up = false;
        for (let t = 0; t < 240 && !up; t++) {
          if (apis[i]!.child.exitCode !== null) throw new Error(`an API exited:\n${apis[i]!.output()}`);
          // Any answer: health is 503 while no worker polls, and these processes run none.
          up = await fetch(`http://127.0.0.1:${port}/v1/health`).then(
            () => true,
            () => false,
          );
          if (!up) await sleep(250);
        }
        expect(up).toBe(true);
      }
      const store = await openStore({ databaseUrl: pg.url, migrate: false });
      let token: string;
      try {
        ({ token } = await createKey(store, { name: 'burst', scopes: ['*'], ownerId: 'owner_burst' }));
      } finally {
        await store.close();
      }
      // 20 rounds of 40 concurrent requests, alternating between the processes: 800 for 120 tokens.
      const statuses: number[] = [];
      const refusals = new Set<string>();
      for (let round = 0; round < 20; round++) {
        await Promise.all(
          Array.from({ length: 40 }, async (_, i) => {
            const res = await fetch(`http://127.0.0.1:${ports[i % 2]}/v1/usage`, {
              headers: { authorization: `Bearer ${token}` },
            });
            statuses.push(res.status);
            const body = (await res.json()) as {
              error?: { code: string; message: string; details: Record<string, unknown> };
            };
            // The reset varies with the moment of refusal: compared as N.
            if (res.status === 429)
              refusals.add(
                JSON.stringify({
                  ...body.error,
                  message: body.error?.message.replace(/\d+ s\.$/, 'N s.'),
                  details: { ...body.error?.details, retry_after_seconds: 'N' },
                }),
              );
          }),
        );
      }
      expect(statuses.filter((s) => s === 200).length).toBe(limit);
      expect(statuses.filter((s) => s === 429).length).toBe(800 - limit);
      expect([...refusals].map((r) => JSON.parse(r) as unknown)).toEqual([
        {
          code: 'RATE_LIMITED',
          message: 'The standard tier allows 120 requests per minute; retry in N s.',
          details: { tier: 'standard', limit, window_seconds: 60, retry_after_seconds: 'N' },
        },
      ]);
      for (const a of apis) expect(await stop(a.child)).toBe(0);
    }, 180_000);
  },
);
