/** Builds the real API on the test platform (helpers/platform.ts) against a real Temporal test server. */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { buildApp, type App } from '../../api/app.js';
import type { ApiDeps } from '../../api/deps.js';
import { apiDeps } from '../../api/main.js';
import type { Platform } from '../../platform/create-platform.js';
import { clientOn, type TemporalClient } from '../../lib/temporal/client.js';
import { tracingClientInterceptors } from '../../lib/tracing/temporal.js';
import { FIXTURE_APPS, TEST_KEYRING } from './fixtures.js';
import { createTestPlatform, type TestPlatformOptions } from './platform.js';

export { FIXTURE_APPS };

export interface TestApi {
  app: App;
  deps: ApiDeps;
  /** The parts the API was built from; a worker of this API starts from them. */
  platform: Platform;
  close(): Promise<void>;
}

export async function buildTestApi(
  env: TestWorkflowEnvironment,
  opts: TestPlatformOptions & { taskQueue: string },
): Promise<TestApi> {
  const namespace = env.namespace ?? 'default';
  const temporal: TemporalClient = {
    connection: env.connection,
    // While tracing is on, a client that carries the request's trace into the runs it starts.
    client: tracingClientInterceptors() ? clientOn(env.connection, namespace, TEST_KEYRING) : env.client,
    namespace,
    close: () => Promise.resolve(),
  };
  const platform = await createTestPlatform({
    ...opts,
    config: { TEMPORAL_TASK_QUEUE: opts.taskQueue, ...opts.config },
    temporal,
  });
  const deps = apiDeps(platform);
  const app = await buildApp(deps);
  await app.ready();
  return {
    app,
    deps,
    platform,
    async close() {
      await app.close();
      await platform.close().catch(() => undefined);
    },
  };
}
