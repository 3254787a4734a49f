/**
 * `npm run bench:memory [N]`: worker RSS per cached workflow. Starts N (argument or
 * BENCH_MEMORY_RUNS, default 500; the recorded figures use N ≥ 500) runs of a two-step definition on a
 * worker process that has the production workflow bundle and no activities, so each run stays
 * open and cached, waiting on its first activity (for the cache, the same as a timer). Measures
 * the worker's RSS and heap (after a full GC) with a few warm-up runs cached, then with N more,
 * and prints the growth per cached workflow. Loopback only: a local dev server.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import { APPS } from '../activities/apps/index.js';
import { catalogFromRegistry } from '../activities/registry/catalog.js';
import { DefinitionsService } from '../api/services/definitions.js';
import { RunsService } from '../api/services/runs.js';
import { createLogger } from '../lib/logger.js';
import { installTemporalRuntime } from '../lib/temporal/runtime.js';
import { startEngine } from '../test/helpers/engine.js';
import { printTable } from './stats.js';
import { BENCH_DEFINITION } from './workflows/definition.js';

const RUNS = Number(process.argv[2] ?? process.env.BENCH_MEMORY_RUNS ?? 500);
const WARMUP = 20;
const MB = 1024 * 1024;
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('N must be a positive integer');

interface Sample {
  rss: number;
  heapUsed: number;
  cached: number;
}

installTemporalRuntime(createLogger('error'));
const h = await startEngine({ worker: false, apps: APPS });
const child = fork(
  path.join(import.meta.dirname, 'memory/worker.ts'),
  [h.env.address, h.taskQueue, String(RUNS * 2)],
  {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  },
);
const measure = () =>
  new Promise<Sample>((resolve) => {
    child.once('message', (m) => resolve(m as Sample));
    child.send('measure');
  });

try {
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`worker process exited with ${code}`)));
  });
  const def = await h.request('POST', '/v1/workflows', BENCH_DEFINITION, 'application/yaml');
  if (def.status !== 201) throw new Error(def.body);
  const { deps } = h.api;
  const stored = await new DefinitionsService(
    deps.store,
    deps.keyring,
    catalogFromRegistry(deps.registry),
  ).get('owner_a', def.json.id);
  const runs = new RunsService(deps.temporal, deps.config, deps.registry);
  const startMany = async (n: number) => {
    for (let i = 0; i < n; i += 25)
      await Promise.all(Array.from({ length: Math.min(25, n - i) }, () => runs.startRun(stored)));
  };
  const cachedAtLeast = async (n: number) => {
    const deadline = Date.now() + 120_000 + n * 200;
    for (;;) {
      const s = await measure();
      if (s.cached >= n) return s;
      if (Date.now() > deadline) throw new Error(`only ${s.cached} of ${n} runs cached`);
      await new Promise((r) => setTimeout(r, 500));
    }
  };

  await startMany(WARMUP);
  await cachedAtLeast(WARMUP);
  await new Promise((r) => setTimeout(r, 1000));
  const before = await measure();
  await startMany(RUNS);
  await cachedAtLeast(WARMUP + RUNS);
  await new Promise((r) => setTimeout(r, 1000));
  const after = await measure();
  const n = after.cached - before.cached;
  process.stdout.write(
    `worker memory: ${n} more runDefinition runs cached (each waiting on its first activity), after a full GC\n`,
  );
  printTable([
    ['', `${before.cached} cached`, `${after.cached} cached`, 'per cached workflow'],
    [
      'RSS MB',
      (before.rss / MB).toFixed(1),
      (after.rss / MB).toFixed(1),
      ((after.rss - before.rss) / n / MB).toFixed(3),
    ],
    [
      'heap used MB',
      (before.heapUsed / MB).toFixed(1),
      (after.heapUsed / MB).toFixed(1),
      ((after.heapUsed - before.heapUsed) / n / MB).toFixed(3),
    ],
  ]);
} finally {
  if (child.exitCode === null) {
    child.send('stop');
    await Promise.race([
      new Promise((r) => child.once('exit', r)),
      new Promise((r) => setTimeout(r, 10_000)),
    ]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  // Open runs die with the dev server.
  await h.close();
}
