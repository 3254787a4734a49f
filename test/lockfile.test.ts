/**
 * `npm ci` installs a fresh clone on every platform: the lockfile must list every optional
 * dependency of every locked package (the platform binaries of swc, rollup, esbuild and the
 * like), not only the ones of the machine that wrote it. npm rejects a lockfile that lacks one
 * as out of sync with package.json.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../lib/config.js';

interface LockEntry {
  version?: string;
  optionalDependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
};

/** Node's resolution from a lock key: nested node_modules first, then each parent up to the root. */
function resolves(from: string, name: string): boolean {
  let dir = from;
  for (;;) {
    if (lock.packages[`${dir ? `${dir}/` : ''}node_modules/${name}`]) return true;
    if (!dir) return false;
    const at = dir.lastIndexOf('node_modules/');
    dir = at <= 0 ? '' : dir.slice(0, at - 1);
  }
}

describe('package-lock.json', () => {
  it('locks every optional dependency of every package, for every platform', () => {
    expect(lock.lockfileVersion).toBe(3);
    const missing: string[] = [];
    let checked = 0;
    for (const [key, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        checked++;
        if (!resolves(key, name)) missing.push(`${key || '(root)'} → ${name}`);
      }
    }
    expect(missing).toEqual([]);
    // swc and rollup alone have more than thirty platform binaries between them.
    expect(checked).toBeGreaterThan(30);
  });

  it('is accepted by `npm ci` as in sync with package.json', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'skillflow-lock-'));
    try {
      for (const f of ['package.json', 'package-lock.json'])
        copyFileSync(path.join(PROJECT_ROOT, f), path.join(dir, f));
      const run = await promisify(execFile)(
        'npm',
        ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
        { cwd: dir, env: { ...process.env, npm_config_update_notifier: 'false' } },
      ).then(
        () => ({ code: 0, stderr: '' }),
        (err: { code?: number; stderr?: string }) => ({ code: err.code ?? 1, stderr: err.stderr ?? '' }),
      );
      expect(run).toEqual({ code: 0, stderr: '' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
