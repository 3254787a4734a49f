/**
 * The whole service in one process (`npm start`): the Temporal dev server (unless
 * TEMPORAL_ADDRESS is set), simulators for unset upstream URLs, the platform store, the worker
 * and the API (RUN_API / RUN_WORKER leave one out: `npm run start:api`, `npm run start:worker`),
 * then prints what runs (scripts/banner.ts). SIGINT/SIGTERM stop everything it started, in
 * reverse order.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startApi } from '../api/main.js';
import { ConfigError, loadConfig, withValues, type Config } from '../lib/config.js';
import { createProcessLogger } from '../lib/logger.js';
import { observeUpstreams, upstreamOrigins } from '../lib/metrics/upstream.js';
import { provisionTemporalCli } from '../lib/temporal/cli.js';
import { startDevServer } from '../lib/temporal/dev-server.js';
import { installTemporalRuntime } from '../lib/temporal/runtime.js';
import { startTracing } from '../lib/tracing/index.js';
import { START_WAIT_MS } from '../lib/start-wait.js';
import { createPlatform } from '../platform/create-platform.js';
import { temporalWaitLogger } from '../lib/temporal/wait-log.js';
import { startDevSimulators } from '../simulators/index.js';
import { startWorker } from '../worker/index.js';
import { onStopSignals } from '../lib/stop-signals.js';
import { startBanner } from './banner.js';

type Stopper = { name: string; stop: () => Promise<void> };

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  if (
    (!config.process.RUN_API || !config.process.RUN_WORKER) &&
    (!config.store.DATABASE_URL || !config.temporal.TEMPORAL_ADDRESS)
  ) {
    // Split processes must share a store and a server: the embedded PGlite and dev server
    // belong to one process.
    process.stderr.write(
      'skillflow: running only the API or only the worker needs DATABASE_URL (PostgreSQL) and TEMPORAL_ADDRESS;\n' +
        '           the embedded store and dev server are single-process. Use `npm start` for the embedded default.\n',
    );
    process.exit(2);
  }
  const started: Stopper[] = [];
  let stopping = false;
  const shutdown = async (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`\nskillflow: stopping (${reason})…\n`);
    for (const s of started.reverse()) {
      try {
        await s.stop();
      } catch (err) {
        process.stderr.write(`skillflow: stopping ${s.name} failed: ${(err as Error).message}\n`);
      }
    }
    process.exit(code);
  };
  // If whoever started us dies (even by SIGKILL), we are re-parented: stop everything.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void shutdown('parent process exited', 0);
  }, 500).unref();
  onStopSignals((sig) => void shutdown(sig, 0));

  // How long each start-up phase took, logged at debug level once everything runs: the launcher
  // (`npm start`'s dependency and workspace checks), loading this process's modules, then each part.
  const startedAt = performance.now();
  const launch = Number(process.env.SKILLFLOW_LAUNCH_MS);
  const phases: Record<string, number> = {
    ...(Number.isFinite(launch) ? { launcher_ms: launch } : {}),
    load_modules_ms: Math.round(startedAt),
  };
  let phaseStart = startedAt;
  const phaseDone = (name: string) => {
    const now = performance.now();
    phases[`${name}_ms`] = Math.round(now - phaseStart);
    phaseStart = now;
  };
  try {
    const apiBase = `http://${config.api.HOST === '0.0.0.0' ? '127.0.0.1' : config.api.HOST}:${config.api.PORT}`;
    let address = config.temporal.TEMPORAL_ADDRESS;
    let uiUrl = config.temporal.TEMPORAL_UI_URL;
    if (!address) {
      const cli = await provisionTemporalCli({
        rootDir: config.process.rootDir,
        cliPathFromEnv: config.temporal.TEMPORAL_CLI_PATH,
        pathEnv: process.env.PATH,
        log: (m) => process.stderr.write(`skillflow: ${m}\n`),
      });
      process.stderr.write(`skillflow: starting the Temporal dev server (${cli.source}: ${cli.path})…\n`);
      const server = await startDevServer({
        cliPath: cli.path,
        dataDir: config.process.dataDir,
        port: config.temporal.TEMPORAL_DEV_PORT,
        uiPort: config.temporal.TEMPORAL_UI_PORT,
        namespace: config.temporal.TEMPORAL_NAMESPACE,
        codecEndpoint: `${apiBase}/codec`,
      });
      started.push({ name: 'temporal dev server', stop: () => server.stop() });
      // Without its Temporal server the service cannot run: stop everything and say why.
      server.onUnexpectedExit((how) => {
        process.stderr.write(
          `skillflow: the Temporal dev server exited unexpectedly (${how}); its log: ${server.logFile}\n`,
        );
        void shutdown('the Temporal dev server exited', 1);
      });
      address = server.address;
      uiUrl ??= server.uiUrl;
      phaseDone('temporal_dev_server');
    }

    const sims = await startDevSimulators(config);
    started.push({ name: 'simulators', stop: () => sims.close() });
    phaseDone('simulators');
    config = withValues(config, { ...sims.urls, ...(uiUrl ? { TEMPORAL_UI_URL: uiUrl } : {}) });

    const logger = createProcessLogger(config.process);
    installTemporalRuntime(logger);
    // Every upstream request of this process is counted for GET /metrics (lib/metrics/upstream.ts).
    observeUpstreams(upstreamOrigins(config));
    // Traces only with an OTLP endpoint configured; otherwise nothing is loaded (lib/tracing/).
    const tracing = await startTracing(config.tracing);
    if (tracing) started.push({ name: 'tracing', stop: () => tracing.shutdown() });
    const platform = await createPlatform(config, { logger, temporal: { address } });
    started.push({ name: 'platform (store, temporal client)', stop: () => platform.close() });
    phaseDone('platform');
    for (const line of sims.banner) platform.logger.warn(line);

    if (config.process.RUN_WORKER) {
      const worker = await startWorker(platform, {
        address,
        wait: { waitMs: START_WAIT_MS, onWaiting: temporalWaitLogger(platform.logger, address) },
      });
      started.push({ name: 'worker', stop: () => worker.shutdown() });
      phaseDone('worker');
    }
    let devKey: { token: string; file: string } | undefined;
    let signInCode: string | undefined;
    if (config.process.RUN_API) {
      const api = await startApi(platform);
      started.push({ name: 'api', stop: () => api.app.close() });
      devKey = api.devKey;
      signInCode = api.signInCode;
      phaseDone('api');
    }
    platform.logger.debug(
      {
        phases: {
          ...phases,
          total_ms: Math.round((Number.isFinite(launch) ? launch : 0) + performance.now()),
        },
      },
      'start-up phases',
    );
    process.stdout.write(
      startBanner({
        runApi: config.process.RUN_API,
        runWorker: config.process.RUN_WORKER,
        apiBase,
        listen: `${config.api.HOST}:${config.api.PORT}`,
        webBuilt: existsSync(path.join(config.process.rootDir, 'web/dist/index.html')),
        temporalAddress: address,
        namespace: config.temporal.TEMPORAL_NAMESPACE,
        taskQueue: config.temporal.TEMPORAL_TASK_QUEUE,
        uiUrl,
        data: config.store.DATABASE_URL ? 'PostgreSQL via DATABASE_URL' : config.process.dataDir,
        devKey,
        signInCode,
      }),
    );
  } catch (err) {
    process.stderr.write(`skillflow: start failed: ${err instanceof Error ? err.message : String(err)}\n`);
    await shutdown('start failed', 1);
  }
}

void main();
