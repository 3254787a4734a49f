/** Builds the real API against a real Temporal test server and an in-memory PGlite store. */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { buildApp, type App } from '../../api/app.js';
import type { ApiDeps } from '../../api/deps.js';
import type { AppDefinition } from '../../activities/registry/define.js';
import { loadRegistry } from '../../activities/registry/registry.js';
import { loadConfig, withValues, type RawConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/logger.js';
import { staticSecrets, type SecretStore } from '../../lib/secrets.js';
import { openStore } from '../../lib/store/db.js';
import type { TemporalClient } from '../../lib/temporal/client.js';
import { FIXTURE_APPS, TEST_KEYRING, TEST_RESOLVE } from './fixtures.js';

export { FIXTURE_APPS };

export interface TestApi {
  app: App;
  deps: ApiDeps;
  close(): Promise<void>;
}

export async function buildTestApi(
  env: TestWorkflowEnvironment,
  opts: {
    taskQueue: string;
    /** The catalogue to serve; the fixture apps by default. */
    apps?: readonly AppDefinition[];
    secrets?: SecretStore;
    /** Variables to set, as parsed values. */
    config?: Partial<RawConfig>;
    /** A PostgreSQL store instead of an in-memory PGlite one. */
    databaseUrl?: string;
  },
): Promise<TestApi> {
  const config = withValues(
    loadConfig({ TEMPORAL_TASK_QUEUE: opts.taskQueue, LOG_LEVEL: 'silent' }),
    opts.config ?? {},
  );
  const logger = createLogger('silent');
  const secrets = opts.secrets ?? staticSecrets({});
  const store = await openStore(
    opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : { pgliteDir: 'memory://' },
  );
  const registry = await loadRegistry({ config, logger, secrets, store }, opts.apps ?? FIXTURE_APPS);
  const temporal: TemporalClient = {
    connection: env.connection,
    client: env.client,
    namespace: env.namespace ?? 'default',
    close: () => Promise.resolve(),
  };
  const deps: ApiDeps = {
    config,
    logger,
    store,
    temporal,
    registry,
    keyring: TEST_KEYRING,
    secrets,
    resolveHost: TEST_RESOLVE,
  };
  const app = await buildApp(deps);
  await app.ready();
  return {
    app,
    deps,
    async close() {
      await app.close();
      await store.close().catch(() => undefined);
    },
  };
}
