#!/usr/bin/env node
// Installs npm dependencies when they are missing or stale (package-lock.json changed since the
// last install). Plain Node with no dependencies: it runs before node_modules exists.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lock = path.join(root, 'package-lock.json');
const stamp = path.join(root, 'node_modules', '.skillflow-lock-hash');
const hash = createHash('sha256').update(readFileSync(lock)).digest('hex');

if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === hash) process.exit(0);

console.error('skillflow: installing npm dependencies from package-lock.json…');
// `npm ci`, as users and CI systems run it: the lockfile is complete (every platform's optional
// binaries included; test/lockfile.test.ts keeps it so), so the locked tree installs exactly.
const res = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, npm_config_update_notifier: 'false' },
});
if (res.status !== 0) {
  console.error('skillflow: npm ci failed; see the output above.');
  process.exit(res.status ?? 1);
}
writeFileSync(stamp, hash + '\n');
