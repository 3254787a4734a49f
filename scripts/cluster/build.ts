/**
 * `npm run cluster:build`: builds (or finds) the local cluster's Temporal server and schema tool
 * (scripts/cluster/temporal-build.ts), so `npm run cluster` and the cluster tests start at once.
 */
import { PROJECT_ROOT } from '../../lib/config.js';
import { ensureTemporalServer } from './temporal-build.js';

try {
  const tools = await ensureTemporalServer({
    rootDir: PROJECT_ROOT,
    log: (m) => process.stderr.write(`cluster: ${m}\n`),
  });
  process.stderr.write(`cluster: Temporal server ${tools.version} ready at ${tools.server}\n`);
} catch (err) {
  process.stderr.write(`cluster: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
