/**
 * `npm run keys:create` end to end: the script writes a tenant key into a PostgreSQL store and
 * prints only the token on stdout; an API on that store honours it for the granted scope and
 * answers 403 for another. On the embedded store (DATA_DIR) the key verifies the same way.
 * Bad arguments exit 2 with the problems on stderr and nothing written.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config.js';
import { verifyToken } from '../../lib/keys.js';
import { openStore } from '../../lib/store/db.js';
import { buildTestApi, type TestApi } from '../helpers/api.js';
import { postgresAvailable, startTestPostgres, type TestPostgres } from '../helpers/postgres.js';
import { startTestTemporal } from '../helpers/temporal.js';

const TOKEN = /^sf_k[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/;

function run(args: string[], env: NodeJS.ProcessEnv) {
  const res = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(PROJECT_ROOT, 'scripts/create-key.ts'), ...args],
    { cwd: PROJECT_ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, encoding: 'utf8' },
  );
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

describe('keys:create on the embedded store', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillflow-keys-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints a token that verifies with the given owner, scopes and tier', async () => {
    const res = run(['--owner', 'acme', '--name', 'first', '--scopes', 'workflows,keys', '--tier', 'pro'], {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
    });
    expect(res.status).toBe(0);
    const token = res.stdout.trim();
    expect(token).toMatch(TOKEN);
    expect(res.stderr).not.toContain(token);
    expect(res.stderr).not.toContain(token.slice(-43));
    const store = await openStore({ pgliteDir: path.join(dataDir, 'pglite') });
    try {
      expect(await verifyToken(store, token)).toEqual({
        keyId: token.slice(3, 20),
        ownerId: 'acme',
        scopes: ['workflows', 'keys'],
        tier: 'pro',
      });
    } finally {
      await store.close();
    }
  });

  it('exits 2 on bad arguments, names the problems and writes nothing', () => {
    const res = run(['--owner', 'acme', '--name', 'ops', '--scopes', 'admin'], {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
    });
    expect(res).toEqual({
      status: 2,
      stdout: '',
      stderr:
        'keys:create: --scopes: must not include admin (npm run keys:admin makes operator keys)\n' +
        'usage: npm run keys:create -- --owner <owner id> --name <name> --scopes <scope,scope,...> [--tier free|standard|pro]\n',
    });
  });
});

describe.runIf(process.env.CI === 'true' || postgresAvailable())(
  'keys:create against PostgreSQL and the API',
  () => {
    let pg: TestPostgres;
    let env: TestWorkflowEnvironment;
    let api: TestApi;

    beforeAll(async () => {
      pg = await startTestPostgres();
      env = await startTestTemporal();
      api = await buildTestApi(env, { taskQueue: `keys-${randomUUID()}`, databaseUrl: pg.url });
    }, 120_000);
    afterAll(async () => {
      await api?.close();
      await env?.teardown();
      pg?.stop();
    });

    it('the printed token works for the granted scope and is refused (403) for another', async () => {
      const res = run(['--owner', 'owner_first', '--name', 'bootstrap', '--scopes', 'workflows'], {
        DATABASE_URL: pg.url,
      });
      expect(res.status).toBe(0);
      const token = res.stdout.trim();
      expect(token).toMatch(TOKEN);
      expect(res.stderr).not.toContain(token);
      const auth = { authorization: `Bearer ${token}` };
      const list = await api.app.inject({ method: 'GET', url: '/v1/workflows', headers: auth });
      expect([list.statusCode, list.json()]).toEqual([200, { workflows: [] }]);
      const keys = await api.app.inject({ method: 'GET', url: '/v1/keys', headers: auth });
      expect([keys.statusCode, keys.json()]).toEqual([
        403,
        {
          error: {
            code: 'FORBIDDEN',
            message: 'The API key lacks the "keys" scope.',
            details: { required_scope: 'keys' },
          },
        },
      ]);
    });
  },
);
