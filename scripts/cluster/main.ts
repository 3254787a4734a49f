/**
 * `npm run cluster`: the local cluster (scripts/cluster/cluster.ts) until Ctrl-C, which stops
 * every process it started. Settings come from CLUSTER_* variables; any other skillflow variable
 * in the environment is passed to the API and worker processes.
 */
import { CONFIG_SLICES } from '../../lib/config.js';
import { onStopSignals } from '../../lib/stop-signals.js';
import { clusterSettingsSchema, startCluster, type Cluster } from './cluster.js';

const log = (m: string) => process.stderr.write(`cluster: ${m}\n`);

const parsed = clusterSettingsSchema.safeParse(process.env);
if (!parsed.success) {
  for (const issue of parsed.error.issues) log(`${issue.path.join('.')}: ${issue.message}`);
  process.exit(2);
}
// The variables a skillflow process reads, when set here, reach every API and worker.
const known = new Set<string>(Object.values(CONFIG_SLICES).flat());
const passOn = Object.fromEntries(
  Object.entries(process.env).filter(([k, v]) => v !== undefined && known.has(k)) as [string, string][],
);

let cluster: Cluster | undefined;
let stopping = false;
const shutdown = async (code: number) => {
  if (stopping) return;
  stopping = true;
  log('stopping…');
  await cluster?.stop();
  process.exit(code);
};
// A second Ctrl-C stops the servers and processes without waiting for them, never orphans them.
onStopSignals(
  () => void shutdown(0),
  () => cluster?.forceStop(),
);

try {
  cluster = await startCluster(parsed.data, { log, extraEnv: passOn });
  process.stdout.write(
    [
      '',
      'skillflow cluster is running:',
      ...cluster.apiUrls.map((u, i) => `  API ${i + 1}         ${u}/v1`),
      `  Workers       ${cluster.workers.length}`,
      `  Temporal      ${cluster.temporalAddress} (namespace ${parsed.data.CLUSTER_NAMESPACE}, on PostgreSQL)`,
      `  PostgreSQL    127.0.0.1:${parsed.data.CLUSTER_POSTGRES_PORT}`,
      `  Logs          ${cluster.logDir}`,
      `  API key       ${cluster.apiKey} (tenant key of this cluster)`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
} catch (err) {
  log(`start failed: ${err instanceof Error ? err.message : String(err)}`);
  await shutdown(1);
}
