import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeProcess } from './node-process.js';

/** A process that exits with code 3 on its first start and stays up on the next. */
const CRASH_ONCE = `
import { existsSync, writeFileSync } from 'node:fs';
const marker = process.env.MARKER;
if (!existsSync(marker)) { writeFileSync(marker, ''); process.exit(3); }
setInterval(() => {}, 1000);
`;

describe('a cluster process', () => {
  const dirs: string[] = [];
  const procs: NodeProcess[] = [];
  afterEach(async () => {
    for (const p of procs.splice(0)) await p.stop(1000);
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  const spawnCrashing = (source: string) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'node-process-'));
    dirs.push(dir);
    const entry = path.join(dir, 'crash.mjs');
    writeFileSync(entry, source);
    const reports: [string, number][] = [];
    const proc = new NodeProcess({
      name: 'api-1',
      role: 'api',
      entry,
      env: { MARKER: path.join(dir, 'marker') },
      logFile: path.join(dir, 'api-1.log'),
      onUnexpectedExit: (how, restartInMs) => reports.push([how, restartInMs]),
    });
    procs.push(proc);
    return { proc, reports };
  };

  const until = async (check: () => boolean, ms: number) => {
    const deadline = Date.now() + ms;
    while (!check() && Date.now() < deadline) await sleep(50);
    return check();
  };

  it('that exits by itself is reported and started again after a second', async () => {
    const { proc, reports } = spawnCrashing(CRASH_ONCE);
    proc.start();
    expect(await until(() => reports.length > 0, 10_000)).toBe(true);
    expect(reports).toEqual([['exit code 3', 1000]]);
    expect(proc.running).toBe(false);
    expect(await until(() => proc.running, 5_000)).toBe(true);
    // Asked to stop or killed: neither is a crash, and nothing starts it again.
    await proc.kill();
    await sleep(1500);
    expect([proc.running, reports.length]).toEqual([false, 1]);
    proc.start();
    await proc.stop(1000);
    await sleep(1500);
    expect([proc.running, reports.length]).toEqual([false, 1]);
  });

  it('that keeps crashing is started again after twice as long each time', async () => {
    const { proc, reports } = spawnCrashing('process.kill(process.pid, "SIGSEGV");');
    proc.start();
    expect(await until(() => reports.length >= 3, 15_000)).toBe(true);
    await proc.stop(1000);
    expect(reports.slice(0, 3)).toEqual([
      ['signal SIGSEGV', 1000],
      ['signal SIGSEGV', 2000],
      ['signal SIGSEGV', 4000],
    ]);
  });
});
