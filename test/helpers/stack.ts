/**
 * The real stack as `npm start` runs it (scripts/start.mjs) on free loopback ports with a
 * temporary DATA_DIR, for end-to-end tests of the clients; plus a runner for the CLI as a child
 * process. Everything started here is stopped by {@link RunningStack.stop}.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PROJECT_ROOT } from '../../lib/config.js';
import { freePort } from './ports.js';

/** A started stack. */
export interface RunningStack {
  url: string;
  dataDir: string;
  /** The development admin key `npm start` wrote to DATA_DIR/dev-api-key. */
  token: string;
  /** The pid of scripts/start.mjs (the service runs as its child). */
  pid: number;
  output(): string;
  /** SIGTERM, wait for exit, remove DATA_DIR; resolves to the exit code. */
  stop(): Promise<number | null>;
}

/** Processes whose command line mentions `text` (to prove nothing was left behind). */
export function processesMentioning(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmd.includes(text)) found.push(`${pid}: ${cmd}`);
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

/**
 * Starts scripts/start.mjs and waits until /v1/health is 200 and the dev key exists. `env` adds
 * or overrides configuration variables of the stack.
 */
export async function startStack(
  opts: { timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<RunningStack> {
  const timeoutMs = opts.timeoutMs ?? 150_000;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillflow-e2e-'));
  const port = await freePort();
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    // Polls health faster than the public per-IP limit allows.
    PUBLIC_RATE_LIMIT_PER_MINUTE: '0',
    TEMPORAL_DEV_PORT: String(await freePort()),
    TEMPORAL_UI_PORT: String(await freePort()),
    TEMPORAL_ADDRESS: '',
    DATABASE_URL: '',
    SKILLFLOW_ENCRYPTION_KEY: '',
    LOG_LEVEL: 'warn',
    ...opts.env,
  };
  let out = '';
  const child: ChildProcess = spawn(process.execPath, [path.join(PROJECT_ROOT, 'scripts/start.mjs')], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const keyFile = path.join(dataDir, 'dev-api-key');

  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null) child.kill('SIGTERM');
    const until = Date.now() + 30_000;
    while (child.exitCode === null && child.signalCode === null && Date.now() < until) await sleep(100);
    rmSync(dataDir, { recursive: true, force: true });
    return child.exitCode;
  };

  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${out}`);
    try {
      const res = await fetch(`${url}/v1/health`);
      await res.body?.cancel();
      // The dev key is written right after the API listens; the banner comes after the key.
      if (res.status === 200 && existsSync(keyFile) && out.includes('skillflow is running')) {
        const token = readFileSync(keyFile, 'utf8').trim();
        return { url, dataDir, token, pid: child.pid!, output: () => out, stop };
      }
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  await stop();
  throw new Error(`the stack was not healthy within ${timeoutMs} ms:\n${out}`);
}

/** The outcome of one CLI run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `bin/skillflow.js ...args` as a child process (no TTY) with the given environment. */
export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  const clean = { ...process.env };
  delete clean.SKILLFLOW_API_KEY;
  delete clean.SKILLFLOW_URL;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(PROJECT_ROOT, 'bin/skillflow.js'), ...args],
      { cwd: PROJECT_ROOT, env: { ...clean, ...env }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
