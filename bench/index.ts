/**
 * `npm run bench`: every benchmark in turn, each printing its ratios against its baseline, then
 * the figures last recorded for it in docs/benchmarks.md (bench/recorded.ts).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { BENCHES, recordedLines } from './recorded.js';

let failed = 0;
for (const file of BENCHES) {
  const full = path.join(import.meta.dirname, file);
  process.stdout.write(`\n== ${file} ==\n`);
  const res = spawnSync(process.execPath, ['--import', 'tsx', full], { stdio: 'inherit' });
  if (res.status !== 0) failed++;
  process.stdout.write(recordedLines(file));
}
process.exit(failed ? 1 : 0);
