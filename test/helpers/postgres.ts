/**
 * Starts a throwaway PostgreSQL server on loopback for store tests (initdb + pg_ctl from the
 * Debian packages that .ci/run installs), and stops it afterwards. PostgreSQL refuses to run
 * as root, so under root the server runs as the `postgres` system user.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, chownSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface TestPostgres {
  url: string;
  stop(): void;
}

function findBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const dir = path.join(root, v, 'bin');
    if (existsSync(path.join(dir, 'initdb'))) return dir;
  }
  return undefined;
}

/** True when a PostgreSQL server can be started here. */
export function postgresAvailable(): boolean {
  return findBinDir() !== undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = findBinDir();
  if (!bin)
    throw new Error(
      'PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)',
    );
  const asRoot = process.getuid?.() === 0;
  const base = mkdtempSync(path.join(os.tmpdir(), 'skillflow-pg-'));
  const dataDir = path.join(base, 'data');
  if (asRoot)
    chownSync(
      base,
      Number(execFileSync('id', ['-u', 'postgres']).toString()),
      Number(execFileSync('id', ['-g', 'postgres']).toString()),
    );
  const runAs = (cmd: string, args: string[]) => {
    const full = asRoot
      ? (['runuser', ['-u', 'postgres', '--', cmd, ...args]] as const)
      : ([cmd, args] as const);
    const res = spawnSync(full[0], [...full[1]], { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`${path.basename(cmd)} failed: ${res.stderr || res.stdout}`);
  };
  runAs(path.join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'skillflow',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const port = await freePort();
  runAs(path.join(bin, 'pg_ctl'), [
    '-D',
    dataDir,
    '-w',
    '-t',
    '60',
    '-l',
    path.join(base, 'server.log'),
    '-o',
    `-p ${port} -k ${base} -c listen_addresses=127.0.0.1 -c fsync=off`,
    'start',
  ]);
  return {
    url: `postgres://skillflow@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        runAs(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    },
  };
}
