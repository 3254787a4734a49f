import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendOutputToLog } from './child-log.js';

const dir = mkdtempSync(path.join(tmpdir(), 'child-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('appendOutputToLog', () => {
  it('keeps writing stderr after stdout has ended, and closes the file when the child has closed', async () => {
    const logFile = path.join(dir, 'out.log');
    // stdout closes first; stderr keeps writing for a while after.
    const child = spawn(
      process.execPath,
      [
        '-e',
        `process.stdout.write('out\\n'); require('fs').closeSync(1);
         setTimeout(() => { process.stderr.write('late err\\n'); }, 200);`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    appendOutputToLog(child, logFile);
    await new Promise((resolve) => child.once('close', resolve));
    await new Promise((resolve) => setTimeout(resolve, 100));
    process.off('uncaughtException', onUncaught);
    expect(uncaught).toEqual([]);
    expect(readFileSync(logFile, 'utf8')).toBe('out\nlate err\n');
  });
});
