/**
 * A process that starts while PostgreSQL or the Temporal server is not up yet (restarting, or
 * started after it) waits for it within a bound instead of exiting.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config.js';
import { openStore } from '../../lib/store/db.js';
import { connectTemporal, untilTemporalReachable } from '../../lib/temporal/client.js';
import { provisionFromEnv } from '../../lib/temporal/cli.js';
import { startDevServer, type DevServer } from '../../lib/temporal/dev-server.js';
import { NativeConnection } from '@temporalio/worker';
import {
  initPostgres,
  prepareServerDir,
  startPostgres,
  stopPostgres,
} from '../../scripts/cluster/postgres-server.js';
import { TEST_KEYRING } from '../helpers/fixtures.js';
import { postgresAvailable } from '../helpers/postgres.js';
import { freePort } from '../helpers/ports.js';

const dirs: string[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = (): string => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skillflow-start-wait-'));
  dirs.push(dir);
  return dir;
};

// Needs a real PostgreSQL server (PGlite is in-process: nothing to wait for). CI always has one
// (.ci/run installs it), so this never skips there; only a developer machine without PostgreSQL
// skips it, as the PostgreSQL store tests do.
describe.skipIf(process.env.CI !== 'true' && !postgresAvailable())('a start waits for PostgreSQL', () => {
  it('opens the store once a server that was down accepts connections', async () => {
    const base = tempDir();
    prepareServerDir(base);
    const dataDir = path.join(base, 'data');
    initPostgres({ dataDir, user: 'skillflow', noSync: true });
    const port = await freePort();
    const waits: (string | undefined)[] = [];
    const opening = openStore({
      databaseUrl: `postgres://skillflow@127.0.0.1:${port}/postgres`,
      waitMs: 60_000,
      onWaiting: (err) =>
        waits.push((err as { code?: string }).code ?? (err.cause as { code?: string })?.code),
    });
    await new Promise((r) => setTimeout(r, 1_000));
    startPostgres({ dataDir, port, runDir: base, unsafeFast: true });
    cleanups.push(() => stopPostgres(dataDir, 'immediate'));
    const store = await opening;
    cleanups.push(() => store.close());
    await expect(store.ping()).resolves.toBeUndefined();
    expect(waits.length).toBeGreaterThanOrEqual(2);
    expect(new Set(waits)).toEqual(new Set(['ECONNREFUSED']));
  });

  it('gives up after its bound with a message that names the store', async () => {
    const port = await freePort();
    await expect(
      openStore({ databaseUrl: `postgres://skillflow@127.0.0.1:${port}/postgres`, waitMs: 700 }),
    ).rejects.toThrow(/^the platform store could not be reached within 1 s \(ECONNREFUSED\)$/);
  });
});

describe('a start waits for the Temporal server', () => {
  it('connects a client and a worker connection once the server is up', async () => {
    const port = await freePort();
    const waits: string[] = [];
    const wait = { waitMs: 60_000, onWaiting: (err: Error) => waits.push(err.name) };
    const client = connectTemporal(`127.0.0.1:${port}`, 'default', TEST_KEYRING, wait);
    const native = untilTemporalReachable(
      () => NativeConnection.connect({ address: `127.0.0.1:${port}` }),
      wait,
    );
    await new Promise((r) => setTimeout(r, 1_000));
    const server: DevServer = await startDevServer({
      cliPath: (await provisionFromEnv(PROJECT_ROOT)).path,
      dataDir: tempDir(),
      port,
      uiPort: await freePort(),
      namespace: 'default',
    });
    cleanups.push(() => server.stop());
    const [c, n] = await Promise.all([client, native]);
    cleanups.push(() => c.close());
    cleanups.push(() => n.close());
    await expect(c.connection.workflowService.getSystemInfo({})).resolves.toBeDefined();
    expect(waits.length).toBeGreaterThanOrEqual(2);
    expect(waits).toContain('TransportError');
  });

  it('gives up after its bound with a message that names the server', async () => {
    const port = await freePort();
    const started = Date.now();
    await expect(
      connectTemporal(`127.0.0.1:${port}`, 'default', TEST_KEYRING, { waitMs: 700 }),
    ).rejects.toThrow(
      /^the Temporal server could not be reached within 1 s \((connection refused|no connection before the connect deadline)\)$/,
    );
    // A connect try ends within the time left (at least 1 s), not the SDK's 10 s.
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
