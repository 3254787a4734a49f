/**
 * A PostgreSQL server from Debian's packages (initdb + pg_ctl under /usr/lib/postgresql), on
 * loopback only, in a data directory of ours. PostgreSQL refuses to run as root, so under root
 * every server command runs as the `postgres` system user, who must own the directory.
 * Used by `npm run cluster` (a persistent data directory, password auth) and by the store tests
 * (a throwaway directory, trust auth).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The newest installed server's bin directory, if any. */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const dir = path.join(root, v, 'bin');
    if (existsSync(path.join(dir, 'initdb'))) return dir;
  }
  return undefined;
}

function requireBin(): string {
  const bin = findPostgresBin();
  if (!bin)
    throw new Error(
      'PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)',
    );
  return bin;
}

const asRoot = () => process.getuid?.() === 0;

/** Under root, hands a path to the `postgres` user, who runs the server. */
function giveToServerUser(file: string): void {
  if (!asRoot()) return;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
  chownSync(file, uid, gid);
}

/** Creates `dir` if missing, mode 0700, owned by the server's user. */
export function prepareServerDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o700);
  giveToServerUser(dir);
}

/** Runs a server command (as `postgres` under root); throws with its output on failure. */
export function runServerCommand(cmd: string, args: string[]): string {
  const bin = requireBin();
  const exe = path.join(bin, cmd);
  const [file, argv] = asRoot() ? ['runuser', ['-u', 'postgres', '--', exe, ...args]] : [exe, args];
  const res = spawnSync(file, argv, { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`${cmd} failed: ${(res.stderr || res.stdout).trim()}`);
  return res.stdout;
}

export interface InitOptions {
  dataDir: string;
  user: string;
  /** Password auth (scram-sha-256) with this password; trust auth when absent. */
  password?: string;
  /** Skip fsync at init (throwaway servers). */
  noSync?: boolean;
}

/** initdb, unless `dataDir` already holds a cluster. */
export function initPostgres(opts: InitOptions): void {
  if (existsSync(path.join(opts.dataDir, 'PG_VERSION'))) return;
  prepareServerDir(opts.dataDir);
  const args = ['-D', opts.dataDir, '-U', opts.user, '-E', 'UTF8'];
  if (opts.noSync) args.push('--no-sync');
  if (opts.password === undefined) {
    runServerCommand('initdb', [...args, '--auth=trust']);
    return;
  }
  // The password reaches initdb through a file only the server user can read, removed after.
  const pwFile = path.join(opts.dataDir, '..', `.initdb-pw-${process.pid}`);
  writeFileSync(pwFile, `${opts.password}\n`, { mode: 0o600 });
  try {
    giveToServerUser(pwFile);
    runServerCommand('initdb', [...args, '--auth=scram-sha-256', `--pwfile=${pwFile}`]);
  } finally {
    spawnSync('rm', ['-f', pwFile]);
  }
}

export interface StartOptions {
  dataDir: string;
  port: number;
  /** Directory for the Unix socket and the server log (owned like dataDir). */
  runDir: string;
  /** fsync off: only for throwaway servers. */
  unsafeFast?: boolean;
}

/** Starts the server on 127.0.0.1:port and waits until it accepts connections. */
export function startPostgres(opts: StartOptions): void {
  prepareServerDir(opts.runDir);
  const settings = [
    `-p ${opts.port}`,
    `-k ${opts.runDir}`,
    '-c listen_addresses=127.0.0.1',
    ...(opts.unsafeFast ? ['-c fsync=off'] : []),
  ];
  runServerCommand('pg_ctl', [
    '-D',
    opts.dataDir,
    '-w',
    '-t',
    '60',
    '-l',
    path.join(opts.runDir, 'server.log'),
    '-o',
    settings.join(' '),
    'start',
  ]);
}

/** Stops the server: `fast` rolls back open transactions, `immediate` is a crash. */
export function stopPostgres(dataDir: string, mode: 'fast' | 'immediate' = 'fast'): void {
  if (!existsSync(path.join(dataDir, 'postmaster.pid'))) return;
  runServerCommand('pg_ctl', ['-D', dataDir, '-m', mode, '-w', 'stop']);
}
