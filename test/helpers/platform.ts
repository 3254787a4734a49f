/**
 * The platform of a test process (no vitest imports: helper processes use it too): the real
 * composition root (platform/create-platform.ts) on parsed variables, with the fixed test key,
 * a silent logger, the fixed resolver, and an in-memory store unless a PostgreSQL URL is given.
 */
import type { AppDefinition } from '../../activities/registry/define.js';
import { loadConfig, withValues, type RawConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/logger.js';
import { staticSecrets, type SecretStore } from '../../lib/secrets.js';
import { openStore } from '../../lib/store/db.js';
import type { TemporalClient } from '../../lib/temporal/client.js';
import { storeQueryLogger } from '../../lib/tracing/store-queries.js';
import { createPlatform, type Platform } from '../../platform/create-platform.js';
import { FIXTURE_APPS, TEST_KEYRING, TEST_RESOLVE } from './fixtures.js';

export interface TestPlatformOptions {
  /** Variables to set, as parsed values. */
  config?: Partial<RawConfig>;
  /** The catalogue to serve; the fixture apps by default. */
  apps?: readonly AppDefinition[];
  secrets?: SecretStore;
  /** A PostgreSQL store instead of an in-memory PGlite one. */
  databaseUrl?: string;
  /** The test server's client, for a platform the API is built on. */
  temporal?: TemporalClient;
}

/**
 * Tests whose subject is not chat sealing read delivered messages as plaintext, so a test
 * platform runs in the development mode CHAT_SERVER_SEALED unless a test turns it off (the chat
 * key tests in test/integration/chat-keys.test.ts do).
 */
export async function createTestPlatform(opts: TestPlatformOptions = {}): Promise<Platform> {
  const config = withValues(loadConfig({ LOG_LEVEL: 'silent' }), {
    CHAT_SERVER_SEALED: true,
    ...opts.config,
  });
  return createPlatform(config, {
    apps: opts.apps ?? FIXTURE_APPS,
    logger: createLogger('silent'),
    keyring: TEST_KEYRING,
    secrets: opts.secrets ?? staticSecrets({}),
    store: await openStore({
      ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : { pgliteDir: 'memory://' }),
      onQuery: storeQueryLogger(opts.databaseUrl ? 'postgres' : 'pglite'),
    }),
    resolveHost: TEST_RESOLVE,
    ...(opts.temporal ? { temporal: opts.temporal } : {}),
  });
}
