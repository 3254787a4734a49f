/**
 * The CLI runs from its JavaScript build: bin/skillflow.js makes it when missing or older than
 * a source, and the build behaves as the TypeScript sources do.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLI = path.join(ROOT, 'bin/skillflow.js');
const ENTRY = path.join(ROOT, 'dist/skillflow-cli.mjs');
const INPUTS = path.join(ROOT, 'dist/skillflow-cli.inputs.json');
const help = (args: string[]): string =>
  execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });

describe('the CLI build', () => {
  it('prints the same help as the TypeScript sources, from a build newer than each of its sources', () => {
    const built = help([CLI, 'workflows', '--help']);
    expect(built).toContain('Usage: skillflow workflows');
    const inputs = JSON.parse(readFileSync(INPUTS, 'utf8')) as string[];
    expect(inputs).toContain('cli/main.ts');
    expect(inputs).toContain('sdk/http.ts');
    expect(inputs.every((f) => !f.startsWith('node_modules/'))).toBe(true);
    const entryTime = statSync(ENTRY).mtimeMs;
    for (const f of inputs) expect(statSync(path.join(ROOT, f)).mtimeMs, f).toBeLessThanOrEqual(entryTime);
    expect(help(['--import', 'tsx', path.join(ROOT, 'cli/main.ts'), 'workflows', '--help'])).toBe(built);
  });

  it('is made again when a source is newer than the build', () => {
    help([CLI, '--help']);
    const before = statSync(ENTRY).mtimeMs;
    const source = path.join(ROOT, 'cli/output.ts');
    const { atime, mtime } = statSync(source);
    const later = new Date(Math.max(Date.now(), before) + 2_000);
    utimesSync(source, later, later);
    try {
      expect(help([CLI, '--help'])).toContain('Usage: skillflow');
      expect(statSync(ENTRY).mtimeMs).toBeGreaterThan(before);
    } finally {
      utimesSync(source, atime, mtime);
    }
  });
});
