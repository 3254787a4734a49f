/**
 * Starts a throwaway PostgreSQL server on loopback for store tests (the Debian packages that
 * .ci/run installs; scripts/cluster/postgres-server.ts runs them), and stops it afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  findPostgresBin,
  initPostgres,
  prepareServerDir,
  startPostgres,
  stopPostgres,
} from '../../scripts/cluster/postgres-server.js';
import { freePort } from './ports.js';

export interface TestPostgres {
  url: string;
  stop(): void;
}

/** True when a PostgreSQL server can be started here. */
export function postgresAvailable(): boolean {
  return findPostgresBin() !== undefined;
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const base = mkdtempSync(path.join(os.tmpdir(), 'skillflow-pg-'));
  prepareServerDir(base);
  const dataDir = path.join(base, 'data');
  initPostgres({ dataDir, user: 'skillflow', noSync: true });
  const port = await freePort();
  startPostgres({ dataDir, port, runDir: base, unsafeFast: true });
  return {
    url: `postgres://skillflow@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        stopPostgres(dataDir, 'immediate');
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    },
  };
}
