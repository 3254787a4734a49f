/** `npm run bench`: every benchmark in turn, each printing its ratios against its baseline. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const benches = [
  'search-domains.bench.ts',
  'workflows.bench.ts',
  'loops.bench.ts',
  'memory.bench.ts',
  'api.bench.ts',
  'run-start.bench.ts',
  'icons.bench.ts',
  'web.bench.ts',
  'events.bench.ts',
  'reruns.bench.ts',
  'tracing.bench.ts',
  'cluster.bench.ts',
  'cli.bench.ts',
  'startup.bench.ts',
];
let failed = 0;
for (const file of benches) {
  const full = path.join(import.meta.dirname, file);
  if (!existsSync(full)) continue;
  process.stdout.write(`\n== ${file} ==\n`);
  const res = spawnSync(process.execPath, ['--import', 'tsx', full], { stdio: 'inherit' });
  if (res.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
