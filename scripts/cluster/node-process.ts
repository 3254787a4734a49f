/**
 * One skillflow process of the local cluster (an API or a worker): `scripts/main.ts` with its own
 * environment, its output appended to a log file, and the controls a chaos test needs (stop,
 * kill, start again with the same environment).
 */
import { spawn, type ChildProcess } from 'node:child_process';
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
}

export class NodeProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();

  constructor(readonly spec: NodeProcessSpec) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  start(): void {
    if (this.running) return;
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'scripts/main.ts')], {
      cwd: PROJECT_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...this.spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    appendOutputToLog(child, this.spec.logFile);
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  /** SIGKILL: no shutdown hook runs (a crashed host). */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.child!.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM, then SIGKILL after `graceMs`. */
  async stop(graceMs = 30_000): Promise<void> {
    if (!this.running) return;
    this.child!.kill('SIGTERM');
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** Resolves when `probe` passes; rejects if the process exits first or time runs out. */
  async waitUntil(probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.running) throw new Error(`${this.spec.name} exited during start; see ${this.spec.logFile}`);
      if (await probe().catch(() => false)) return;
      if (Date.now() > deadline)
        throw new Error(`${this.spec.name} did not become ready; see ${this.spec.logFile}`);
      await sleep(250);
    }
  }
}
