/**
 * The local cluster: PostgreSQL (for Temporal and the platform store), a Temporal server built
 * from its Go module, the upstream simulators, and N API and M worker processes of skillflow
 * sharing them, all on loopback. `npm run cluster` runs it until Ctrl-C; the chaos test drives
 * the same object (kill a worker, restart the Temporal server or PostgreSQL, kill an API).
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { loadConfig, PROJECT_ROOT } from '../../lib/config.js';
import { ensureKeyFile } from '../../lib/dev-key.js';
import { openStore } from '../../lib/store/db.js';
import { startDevSimulators, type DevSimulators } from '../../simulators/index.js';
import { NodeProcess } from './node-process.js';
import { initPostgres, startPostgres, stopPostgres } from './postgres-server.js';
import { ensureTemporalServer, type TemporalServerTools } from './temporal-build.js';
import {
  prepareNamespace,
  setupTemporalSchema,
  startTemporalServer,
  temporalServerEnv,
  type RunningTemporal,
  type TemporalDatabase,
} from './temporal-server.js';

/** The cluster's own settings (environment of `npm run cluster`). */
export const clusterSettingsSchema = z.object({
  CLUSTER_DATA_DIR: z
    .string()
    .min(1)
    .default(path.join(PROJECT_ROOT, '.data', 'cluster')),
  CLUSTER_APIS: z.coerce.number().int().min(1).max(8).default(2),
  CLUSTER_WORKERS: z.coerce.number().int().min(1).max(8).default(2),
  /** The first API's port; the others take the next ones. */
  CLUSTER_API_PORT: z.coerce.number().int().min(1024).max(65000).default(8080),
  /** Its membership ports (300 below) must fit Temporal's smallint column: at most 32767. */
  CLUSTER_TEMPORAL_PORT: z.coerce.number().int().min(1400).max(33_000).default(17233),
  CLUSTER_POSTGRES_PORT: z.coerce.number().int().min(1024).max(65000).default(15432),
  CLUSTER_NAMESPACE: z.string().min(1).default('default'),
});
export type ClusterSettings = z.infer<typeof clusterSettingsSchema>;

/** Database role and names (the same as docker-compose.yml's). */
export const CLUSTER_DB = {
  user: 'skillflow',
  store: 'skillflow',
  temporal: 'temporal',
  visibility: 'temporal_visibility',
};

export interface Cluster {
  settings: ClusterSettings;
  apis: NodeProcess[];
  workers: NodeProcess[];
  /** The API base URLs, in the order of `apis`. */
  apiUrls: string[];
  temporalAddress: string;
  databaseUrl: string;
  /** A tenant API key created for this cluster (scopes `*`), stored in the data directory. */
  apiKey: string;
  logDir: string;
  /** Process ids of the Temporal server and the PostgreSQL postmaster (for CPU accounting). */
  serverPids(): { temporal: number | undefined; postgres: number | undefined };
  restartTemporal(): Promise<void>;
  restartPostgres(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Synchronous last resort (a second Ctrl-C): SIGKILL to the API and worker processes, SIGTERM
   * to the Temporal server, PostgreSQL's fast shutdown (SIGINT); waits for nothing.
   */
  forceStop(): void;
}

/** A secret of the cluster's data directory: read, or generated once (mode 0600). */
function secretFile(dir: string, name: string, make: () => string): string {
  const file = path.join(dir, 'secrets', name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const value = make();
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return value;
}

/** Under root the server runs as `postgres`, who must be able to reach the data directory. */
function checkReachable(dir: string): void {
  if (process.getuid?.() !== 0) return;
  const res = spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', dir]);
  if (res.status !== 0)
    throw new Error(
      `the postgres system user cannot reach ${dir}; set CLUSTER_DATA_DIR to a directory outside a private home`,
    );
}

function createDatabase(url: string, name: string): void {
  // psql is in the same Debian package as the server; CREATE DATABASE has no IF NOT EXISTS.
  const res = spawnSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qAtc', `CREATE DATABASE ${name}`], {
    encoding: 'utf8',
  });
  if (res.status !== 0 && !/already exists/.test(res.stderr))
    throw new Error(`creating the database ${name} failed: ${res.stderr.trim()}`);
}

async function waitHealthy(api: NodeProcess, url: string, timeoutMs: number): Promise<void> {
  await api.waitUntil(async () => {
    const res = await fetch(`${url}/v1/health`);
    return res.status === 200;
  }, timeoutMs);
}

export async function startCluster(
  settings: ClusterSettings,
  opts: { log: (m: string) => void; extraEnv?: Record<string, string> } = { log: () => {} },
): Promise<Cluster> {
  const dir = path.resolve(settings.CLUSTER_DATA_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  checkReachable(dir);
  const logDir = path.join(dir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const stoppers: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stoppers.splice(0).reverse()) await s().catch(() => {});
  };
  try {
    const tools: TemporalServerTools = await ensureTemporalServer({ rootDir: PROJECT_ROOT, log: opts.log });

    const password = secretFile(dir, 'postgres-password', () => randomBytes(18).toString('base64url'));
    const encryptionKey = secretFile(
      dir,
      'encryption-key',
      () => `cluster:${randomBytes(32).toString('base64')}`,
    );
    const pgData = path.join(dir, 'postgres');
    const pgRun = path.join(dir, 'postgres-run');
    initPostgres({ dataDir: pgData, user: CLUSTER_DB.user, password });
    const pgPort = settings.CLUSTER_POSTGRES_PORT;
    const startPg = () => startPostgres({ dataDir: pgData, port: pgPort, runDir: pgRun });
    opts.log(`starting PostgreSQL on 127.0.0.1:${pgPort} (data in ${path.relative(PROJECT_ROOT, pgData)})`);
    startPg();
    stoppers.push(() => Promise.resolve(stopPostgres(pgData)));
    const admin = `postgres://${CLUSTER_DB.user}:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/postgres`;
    createDatabase(admin, CLUSTER_DB.store);
    const databaseUrl = admin.replace(/\/postgres$/, `/${CLUSTER_DB.store}`);

    const db: TemporalDatabase = {
      host: '127.0.0.1',
      port: pgPort,
      user: CLUSTER_DB.user,
      password,
      main: CLUSTER_DB.temporal,
      visibility: CLUSTER_DB.visibility,
    };
    opts.log(`setting up the Temporal schema (temporal-sql-tool ${tools.version})`);
    setupTemporalSchema(tools, db);
    const temporalEnv = temporalServerEnv(db, settings.CLUSTER_TEMPORAL_PORT);
    const startTemporal = () =>
      startTemporalServer({ tools, env: temporalEnv, logFile: path.join(logDir, 'temporal.log') });
    opts.log(`starting the Temporal server ${tools.version} on 127.0.0.1:${settings.CLUSTER_TEMPORAL_PORT}`);
    let temporal: RunningTemporal = await startTemporal();
    stoppers.push(() => temporal.stop());
    await prepareNamespace(temporal.address, settings.CLUSTER_NAMESPACE);

    // One set of simulators for the whole cluster, so every process sees the same upstreams.
    const sims: DevSimulators = await startDevSimulators(loadConfig({ NODE_ENV: 'development' }));
    stoppers.push(() => sims.close());
    const simEnv = Object.fromEntries(
      Object.entries(sims.urls).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]),
    );

    const common: Record<string, string> = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE: settings.CLUSTER_NAMESPACE,
      SKILLFLOW_ENCRYPTION_KEY: encryptionKey,
      HOST: '127.0.0.1',
      ...simEnv,
      ...opts.extraEnv,
    };
    const reportExit = (name: string) => (how: string, restartInMs: number) =>
      opts.log(
        `${name} exited unexpectedly (${how}); starting it again in ${restartInMs / 1000} s; see ${path.join(logDir, `${name}.log`)}`,
      );
    const apiUrls: string[] = [];
    const apis = Array.from({ length: settings.CLUSTER_APIS }, (_, i) => {
      const port = settings.CLUSTER_API_PORT + i;
      apiUrls.push(`http://127.0.0.1:${port}`);
      return new NodeProcess({
        name: `api-${i + 1}`,
        role: 'api',
        logFile: path.join(logDir, `api-${i + 1}.log`),
        onUnexpectedExit: reportExit(`api-${i + 1}`),
        env: {
          ...common,
          RUN_API: 'true',
          RUN_WORKER: 'false',
          PORT: String(port),
          DATA_DIR: path.join(dir, `api-${i + 1}`),
        },
      });
    });
    const workers = Array.from(
      { length: settings.CLUSTER_WORKERS },
      (_, i) =>
        new NodeProcess({
          name: `worker-${i + 1}`,
          role: 'worker',
          logFile: path.join(logDir, `worker-${i + 1}.log`),
          onUnexpectedExit: reportExit(`worker-${i + 1}`),
          env: {
            ...common,
            RUN_API: 'false',
            RUN_WORKER: 'true',
            DATA_DIR: path.join(dir, `worker-${i + 1}`),
          },
        }),
    );
    for (const p of [...workers, ...apis]) {
      p.start();
      stoppers.push(() => p.stop());
    }
    await Promise.all(apis.map((a, i) => waitHealthy(a, apiUrls[i]!, 120_000)));

    const apiKey = await clusterKey(dir, databaseUrl);
    const serverPids = () => {
      let postgres: number | undefined;
      try {
        postgres =
          Number(readFileSync(path.join(pgData, 'postmaster.pid'), 'utf8').split('\n')[0]) || undefined;
      } catch {
        // not running
      }
      return { temporal: temporal.child.pid, postgres };
    };
    return {
      settings,
      apis,
      workers,
      apiUrls,
      temporalAddress: temporal.address,
      databaseUrl,
      apiKey,
      logDir,
      serverPids,
      forceStop() {
        const signal = (pid: number | undefined, sig: NodeJS.Signals) => {
          if (pid === undefined) return;
          try {
            process.kill(pid, sig);
          } catch {
            // already gone
          }
        };
        for (const p of [...apis, ...workers]) signal(p.pid, 'SIGKILL');
        const pids = serverPids();
        signal(pids.temporal, 'SIGTERM');
        signal(pids.postgres, 'SIGINT');
      },
      async restartTemporal() {
        await temporal.stop();
        temporal = await startTemporal();
      },
      restartPostgres() {
        stopPostgres(pgData);
        startPg();
        return Promise.resolve();
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The cluster's tenant key: created once through the store, kept in the data directory. */
async function clusterKey(dir: string, databaseUrl: string): Promise<string> {
  const store = await openStore({ databaseUrl, pgliteDir: path.join(dir, 'unused-pglite') });
  try {
    return await ensureKeyFile(store, path.join(dir, 'secrets', 'api-key'), {
      name: 'cluster key',
      scopes: ['*'],
      ownerId: 'cluster',
      tier: 'pro',
    });
  } finally {
    await store.close();
  }
}
