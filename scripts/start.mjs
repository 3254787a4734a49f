#!/usr/bin/env node
// `npm start`: install what is missing, then run the whole service (scripts/main.ts) as a child
// and forward Ctrl-C / SIGTERM / SIGHUP to it, so its shutdown stops everything it started.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ensure = spawnSync(process.execPath, [path.join(root, 'scripts/ensure-deps.mjs')], {
  stdio: 'inherit',
});
if (ensure.status !== 0) process.exit(ensure.status ?? 1);
// The web workspace served at `/`: built when missing or when its sources changed.
if (process.env.RUN_API !== 'false') {
  const web = spawnSync(process.execPath, [path.join(root, 'scripts/build-web.mjs')], { stdio: 'inherit' });
  if (web.status !== 0) process.exit(web.status ?? 1);
}

const entry = process.argv[2] ?? 'scripts/main.ts';
const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, entry), ...process.argv.slice(3)], {
  cwd: root,
  stdio: 'inherit',
  // The time this launcher took (dependency and workspace checks), for the start-up phases log.
  env: { ...process.env, SKILLFLOW_LAUNCH_MS: String(Math.round(performance.now())) },
});
let forwarded;
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    forwarded = sig;
    if (child.exitCode === null) child.kill(sig);
  });
}
// A service that ends without being asked to says so here, and npm start exits non-zero.
child.on('exit', (code, signal) => {
  if (signal && signal !== forwarded) process.stderr.write(`skillflow: the service was ended by ${signal}\n`);
  else if (code && !forwarded)
    process.stderr.write(`skillflow: the service stopped with exit code ${code}\n`);
  process.exit(code ?? (signal && signal !== forwarded ? 1 : 0));
});

// npm runs this through `sh -c`, and on SIGTERM the shell dies without passing the signal on.
// When our parent goes away we are re-parented: treat that as a stop request.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent && child.exitCode === null) child.kill('SIGTERM');
}, 500).unref();
