/**
 * `npm run bench:startup`: a second `npm start` on a warm checkout (dependencies, the web build
 * and the Temporal CLI present), as a user runs it: wall time from the launch to the first
 * `200` of `GET /v1/health`, and the start-up phases the service logs at debug level
 * (`start-up phases`: launcher, module loading, Temporal dev server, simulators, platform,
 * worker, API). BENCH_STARTUP_RUNS runs (default 3) after one warm-up run that creates the data
 * directory they all share (so each is a second start), each on free loopback ports, stopped
 * with SIGINT. Goal: healthy in ≤ 8 s.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PROJECT_ROOT } from '../lib/config.js';
import { freePort } from '../test/helpers/ports.js';
import { percentile, printTable } from './stats.js';

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 3);
const GOAL_MS = 8_000;

interface Run {
  healthyMs: number;
  phases: Record<string, number>;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'skillflow-startup-'));

async function once(): Promise<Run> {
  const [port, temporalPort, uiPort] = [await freePort(), await freePort(), await freePort()];
  let out = '';
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'scripts/start.mjs')], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      TEMPORAL_DEV_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  try {
    let healthyMs: number | undefined;
    while (healthyMs === undefined) {
      if (child.exitCode !== null) throw new Error(`npm start exited early:\n${out.slice(-2000)}`);
      if (performance.now() - t0 > 120_000) throw new Error('not healthy within 120 s');
      const ok = await fetch(`http://127.0.0.1:${port}/v1/health`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) healthyMs = performance.now() - t0;
      else await sleep(20);
    }
    let phases: Record<string, number> | undefined;
    for (let i = 0; i < 100 && !phases; i++) {
      const line = out.split('\n').find((l) => l.includes('"start-up phases"'));
      if (line) phases = (JSON.parse(line) as { phases: Record<string, number> }).phases;
      else await sleep(50);
    }
    if (!phases) throw new Error('no "start-up phases" line in the debug log');
    return { healthyMs, phases };
  } finally {
    child.kill('SIGINT');
    while (child.exitCode === null) await sleep(100);
  }
}

const runs: Run[] = [];
try {
  await once();
  for (let i = 0; i < RUNS; i++) runs.push(await once());
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
const names = Object.keys(runs[0]!.phases);
const median = (values: number[]) => percentile(values, 50);
process.stdout.write(
  `\nnpm start on a warm checkout, ${RUNS} runs after a warm-up (median, min, max in ms)\n`,
);
printTable([
  ['', 'median', 'min', 'max'],
  ...[
    ['healthy (launch → GET /v1/health 200)', runs.map((r) => r.healthyMs)] as const,
    ...names.map((n) => [n, runs.map((r) => r.phases[n] ?? NaN)] as const),
  ].map(([label, v]) => [
    label,
    median([...v]).toFixed(0),
    Math.min(...v).toFixed(0),
    Math.max(...v).toFixed(0),
  ]),
]);
const m = median(runs.map((r) => r.healthyMs));
process.stdout.write(
  `target healthy ≤ ${GOAL_MS / 1000} s: ${(m / 1000).toFixed(1)} s ${m <= GOAL_MS ? 'met' : 'MISSED'}\n`,
);
