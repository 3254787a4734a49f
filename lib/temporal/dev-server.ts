/**
 * Runs `temporal server start-dev` for the embedded default: SQLite under the data directory,
 * the engine's search attributes registered, the Web UI pointed at our codec endpoint. The
 * process is tracked in a pid file so a crashed previous run is cleaned up, and it is killed
 * when this process exits for any reason we can observe.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import { appendOutputToLog } from '../child-log.js';
import { ensureSearchAttributes } from './ensure-search-attributes.js';
import { searchAttributeFlags } from './search-attributes.js';

export interface DevServerOptions {
  cliPath: string;
  dataDir: string;
  port: number;
  uiPort: number;
  namespace: string;
  /** Remote codec endpoint the Web UI uses to decode payloads. */
  codecEndpoint?: string;
  startTimeoutMs?: number;
  log?: (message: string) => void;
}

export interface DevServer {
  address: string;
  uiUrl: string;
  pid: number;
  /** Where the server's output goes. */
  logFile: string;
  stop(): Promise<void>;
  /** Calls `listener` with how it ended (`exit code 1`, `signal SIGKILL`) if it exits before stop(). */
  onUnexpectedExit(listener: (how: string) => void): void;
}

let pdeathsig: boolean | undefined;
function pdeathsigAvailable(): boolean {
  if (pdeathsig === undefined) {
    pdeathsig =
      process.platform === 'linux' &&
      spawnSync('setpriv', ['--help'], { encoding: 'utf8' }).stdout?.includes('--pdeathsig') === true;
  }
  return pdeathsig;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function cmdlineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await sleep(100);
  }
  return !alive(pid);
}

/** Stops a server left behind by a previous run that died without cleaning up. */
async function reapStale(pidFile: string, dbFile: string, log: (m: string) => void): Promise<void> {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  if (Number.isInteger(pid) && pid > 0 && alive(pid) && cmdlineOf(pid).includes(dbFile)) {
    log(`Stopping a Temporal dev server left by a previous run (pid ${pid})`);
    process.kill(pid, 'SIGTERM');
    if (!(await waitForExit(pid, 10_000))) process.kill(pid, 'SIGKILL');
  }
  rmSync(pidFile, { force: true });
}

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = createConnection({ host: '127.0.0.1', port });
    sock.once('connect', () => (sock.destroy(), resolve(true)));
    sock.once('error', () => resolve(false));
  });
}

async function waitReady(
  address: string,
  child: ChildProcess,
  deadline: number,
  logFile: string,
): Promise<void> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n') : '';
      throw new Error(
        `the Temporal dev server exited (${child.exitCode ?? child.signalCode}) during start:\n${tail}`,
      );
    }
    try {
      const conn = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await conn.workflowService.getSystemInfo({});
        return;
      } finally {
        await conn.close();
      }
    } catch {
      if (Date.now() > deadline)
        throw new Error(`the Temporal dev server did not answer on ${address} in time`);
      await sleep(250);
    }
  }
}

export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  const log = opts.log ?? (() => undefined);
  mkdirSync(opts.dataDir, { recursive: true });
  const dbFile = path.join(opts.dataDir, 'temporal.sqlite');
  const pidFile = path.join(opts.dataDir, 'temporal.pid');
  const logFile = path.join(opts.dataDir, 'temporal.log');
  await reapStale(pidFile, dbFile, log);
  for (const p of [opts.port, opts.uiPort]) {
    if (await portInUse(p)) {
      throw new Error(
        `port ${p} is already in use; stop whatever holds it or set TEMPORAL_ADDRESS to use a running server`,
      );
    }
  }
  const args = [
    'server',
    'start-dev',
    '--db-filename',
    dbFile,
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--ui-port',
    String(opts.uiPort),
    '--namespace',
    opts.namespace,
    '--log-level',
    'warn',
    ...searchAttributeFlags(),
    ...(opts.codecEndpoint ? ['--ui-codec-endpoint', opts.codecEndpoint] : []),
  ];
  // setpriv --pdeathsig makes the kernel stop the server even if this process is SIGKILLed.
  const [cmd, cmdArgs] = pdeathsigAvailable()
    ? ['setpriv', ['--pdeathsig', 'SIGTERM', '--', opts.cliPath, ...args]]
    : [opts.cliPath, args];
  const child = spawn(cmd, cmdArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
  appendOutputToLog(child, logFile);
  if (!child.pid) throw new Error('could not spawn the Temporal CLI');
  const pid = child.pid;
  writeFileSync(pidFile, String(pid));
  // Synchronous last resort: 'exit' handlers cannot await, but kill() is synchronous.
  const onExit = () => {
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  };
  process.on('exit', onExit);

  const address = `127.0.0.1:${opts.port}`;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (alive(pid)) {
      process.kill(pid, 'SIGTERM');
      if (!(await waitForExit(pid, 15_000))) process.kill(pid, 'SIGKILL');
      await waitForExit(pid, 5_000);
    }
    process.off('exit', onExit);
    rmSync(pidFile, { force: true });
  };
  try {
    await waitReady(address, child, Date.now() + (opts.startTimeoutMs ?? 60_000), logFile);
    const conn = await Connection.connect({ address });
    try {
      await ensureSearchAttributes(conn, opts.namespace);
    } finally {
      await conn.close();
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const onUnexpectedExit = (listener: (how: string) => void) => {
    const report = () => {
      if (!stopped) listener(child.signalCode ? `signal ${child.signalCode}` : `exit code ${child.exitCode}`);
    };
    if (child.exitCode !== null || child.signalCode !== null) report();
    else child.once('exit', report);
  };
  return { address, uiUrl: `http://127.0.0.1:${opts.uiPort}`, pid, logFile, stop, onUnexpectedExit };
}
