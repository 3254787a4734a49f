/**
 * One skillflow process of the local cluster (an API or a worker): `scripts/main.ts` with its own
 * environment, its output appended to a log file, and the controls a chaos test needs (stop,
 * kill, start again with the same environment).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PROJECT_ROOT } from '../../lib/config.js';
import { appendOutputToLog } from '../../lib/child-log.js';

export type Role = 'api' | 'worker';

export interface NodeProcessSpec {
  name: string;
  role: Role;
  env: Record<string, string>;
  logFile: string;
  /** The script node runs (through tsx); `scripts/main.ts` by default. */
  entry?: string;
  /**
   * Told when the process exits without being asked to (a crash): its exit code or signal, and
   * in how many ms it is started again.
   */
  onUnexpectedExit?: (how: string, restartInMs: number) => void;
}

/** The last lines of a log, for an error that says why a process stopped (its log may be gone by then). */
function logTail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** The first restart after a crash waits a second, each further one within 5 minutes twice as long, up to 30 s. */
const FIRST_RESTART_MS = 1_000;
const MAX_RESTART_MS = 30_000;
const CRASH_MEMORY_MS = 5 * 60_000;

export class NodeProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private stopRequested = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly crashes: number[] = [];

  constructor(readonly spec: NodeProcessSpec) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  start(): void {
    if (this.running) return;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', this.spec.entry ?? path.join(PROJECT_ROOT, 'scripts/main.ts')],
      {
        cwd: PROJECT_ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...this.spec.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    appendOutputToLog(child, this.spec.logFile);
    this.child = child;
    this.stopRequested = false;
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        if (!this.stopRequested) this.restartAfterCrash(signal ? `signal ${signal}` : `exit code ${code}`);
        resolve();
      }),
    );
  }

  /**
   * Starts a process that exited by itself again after a back-off (as a container's
   * `restart: unless-stopped` does), and says so.
   */
  private restartAfterCrash(how: string): void {
    const now = Date.now();
    while (this.crashes.length > 0 && now - this.crashes[0]! > CRASH_MEMORY_MS) this.crashes.shift();
    const delay = Math.min(MAX_RESTART_MS, FIRST_RESTART_MS * 2 ** this.crashes.length);
    this.crashes.push(now);
    this.spec.onUnexpectedExit?.(how, delay);
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => this.start(), delay);
    this.restartTimer.unref();
  }

  /** SIGKILL: no shutdown hook runs (a crashed host). */
  async kill(): Promise<void> {
    clearTimeout(this.restartTimer);
    if (!this.running) return;
    this.stopRequested = true;
    this.child!.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM, then SIGKILL after `graceMs`. */
  async stop(graceMs = 30_000): Promise<void> {
    clearTimeout(this.restartTimer);
    if (!this.running) return;
    this.stopRequested = true;
    this.child!.kill('SIGTERM');
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** Resolves when `probe` passes; rejects if the process exits first or time runs out. */
  async waitUntil(probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.running)
        throw new Error(
          `${this.spec.name} exited during start; the end of ${this.spec.logFile}:\n${logTail(this.spec.logFile)}`,
        );
      if (await probe().catch(() => false)) return;
      if (Date.now() > deadline)
        throw new Error(`${this.spec.name} did not become ready; see ${this.spec.logFile}`);
      await sleep(250);
    }
  }
}
