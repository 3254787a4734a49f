/**
 * CLI start-up: wall time of `skillflow --help`, of `skillflow workflows validate` of an example
 * against the API's live catalog and of the same with `--offline` (this checkout's catalog),
 * each run 15 times after 2 warm-up runs, interleaved with the baseline `node -e ''` so both
 * see the same machine. Reported as the median wall time and its difference from the baseline.
 * Goals: `--help` at most 300 ms, `validate` at most 600 ms.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../lib/config.js';
import { startStack } from '../test/helpers/stack.js';
import { percentile, printTable } from './stats.js';

const RUNS = 15;
const WARM_UP = 2;
const CLI = path.join(PROJECT_ROOT, 'bin/skillflow.js');
const EXAMPLE = path.join(PROJECT_ROOT, 'definitions/examples/domain-ideas.yaml');

const stack = await startStack();
try {
  const env = { ...process.env, SKILLFLOW_URL: stack.url, SKILLFLOW_API_KEY: stack.token };
  const cases: { name: string; args: string[]; goalMs?: number }[] = [
    { name: "baseline: node -e ''", args: ['-e', ''] },
    { name: 'skillflow --help', args: [CLI, '--help'], goalMs: 300 },
    {
      name: 'skillflow workflows validate (live catalog)',
      args: [CLI, 'workflows', 'validate', EXAMPLE],
      goalMs: 600,
    },
    {
      name: 'skillflow workflows validate --offline',
      args: [CLI, 'workflows', 'validate', EXAMPLE, '--offline'],
    },
  ];
  const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  for (let round = 0; round < WARM_UP + RUNS; round++) {
    for (const c of cases) {
      const started = process.hrtime.bigint();
      const res = spawnSync(process.execPath, c.args, { env, encoding: 'utf8' });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (res.status !== 0) throw new Error(`${c.name} exited ${res.status}: ${res.stderr}`);
      if (round >= WARM_UP) times.get(c.name)!.push(ms);
    }
  }
  const base = percentile(times.get(cases[0]!.name)!, 50);
  const rows = [['command', 'median ms', 'p90 ms', 'over baseline ms', 'goal']];
  for (const c of cases) {
    const t = times.get(c.name)!;
    const median = percentile(t, 50);
    rows.push([
      c.name,
      median.toFixed(0),
      percentile(t, 90).toFixed(0),
      c === cases[0] ? '' : `+${(median - base).toFixed(0)}`,
      c.goalMs === undefined ? '' : `≤ ${c.goalMs} ms: ${median <= c.goalMs ? 'met' : 'missed'}`,
    ]);
  }
  printTable(rows);
} finally {
  await stack.stop();
}
