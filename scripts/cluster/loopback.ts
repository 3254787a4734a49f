/**
 * A throwaway local cluster for tests and benchmarks: a fresh data directory under the system's
 * temporary directory (reachable by the `postgres` system user), free loopback ports for every
 * server, and the public per-address limit lifted (tests poll health faster than it allows).
 * `close` stops the cluster and removes the directory unless told to keep it (its logs).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clusterSettingsSchema, startCluster, type Cluster } from './cluster.js';
import { freePortBase, TEMPORAL_PORT_OFFSETS, TEMPORAL_PORT_RANGE } from './ports.js';

export interface LoopbackCluster {
  cluster: Cluster;
  dataDir: string;
  close(opts?: { keepLogs?: boolean }): Promise<void>;
}

export async function startLoopbackCluster(opts: {
  workers?: number;
  env?: Record<string, string>;
  log: (m: string) => void;
}): Promise<LoopbackCluster> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillflow-cluster-'));
  chmodSync(dataDir, 0o755); // the postgres system user runs the server inside it
  const remove = () => rmSync(dataDir, { recursive: true, force: true });
  try {
    const cluster = await startCluster(
      clusterSettingsSchema.parse({
        CLUSTER_DATA_DIR: dataDir,
        CLUSTER_WORKERS: opts.workers ?? 2,
        CLUSTER_API_PORT: await freePortBase([0, 1]),
        CLUSTER_TEMPORAL_PORT: await freePortBase(TEMPORAL_PORT_OFFSETS, TEMPORAL_PORT_RANGE),
        CLUSTER_POSTGRES_PORT: await freePortBase([0]),
      }),
      { log: opts.log, extraEnv: { LOG_LEVEL: 'warn', PUBLIC_RATE_LIMIT_PER_MINUTE: '0', ...opts.env } },
    );
    return {
      cluster,
      dataDir,
      async close(closeOpts = {}) {
        await cluster.stop();
        if (!closeOpts.keepLogs) remove();
      },
    };
  } catch (err) {
    remove();
    throw err;
  }
}
