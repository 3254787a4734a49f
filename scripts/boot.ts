/**
 * Boot of the platform parts shared by `npm start`, `start:api` and `start:worker`: logger,
 * keyring, secrets, platform store (migrated) and the skill registry.
 */
import path from 'node:path';
import { loadRegistry, type Registry } from '../activities/registry/registry.js';
import type { Config } from '../lib/config.js';
import { loadKeyring, type Keyring } from '../lib/crypto/keyring.js';
import { createLogger, type Logger } from '../lib/logger.js';
import { observeUpstreams, upstreamOrigins } from '../lib/metrics/upstream.js';
import { createSecretStore, type SecretStore } from '../lib/secrets.js';
import { openStore, type Store } from '../lib/store/db.js';
import { countLegacySealed } from '../lib/store/reencrypt.js';
import { installTemporalRuntime } from '../lib/temporal/runtime.js';
import { APPS } from '../activities/apps/index.js';

export interface Platform {
  config: Config;
  logger: Logger;
  keyring: Keyring;
  secrets: SecretStore;
  store: Store;
  registry: Registry;
}

export async function bootPlatform(config: Config, env: NodeJS.ProcessEnv = process.env): Promise<Platform> {
  const logger = createLogger(config.process.LOG_LEVEL);
  installTemporalRuntime(logger);
  // Every upstream request of this process is counted for GET /metrics (lib/metrics/upstream.ts).
  observeUpstreams(upstreamOrigins(config));
  const keyring = loadKeyring(config.security.SKILLFLOW_ENCRYPTION_KEY, config.process.dataDir);
  logger.info({ keyId: keyring.activeKeyId, origin: keyring.origin }, 'payload encryption key loaded');
  const secrets = createSecretStore(config.security.SECRETS_DIR, env);
  const store = await openStore({
    databaseUrl: config.store.DATABASE_URL,
    pgliteDir: path.join(config.process.dataDir, 'pglite'),
    // The code only: a driver message may name hosts or users.
    onPoolError: (err) =>
      logger.error({ errName: err.name, errCode: (err as { code?: string }).code }, 'store connection lost'),
  });
  // Values sealed before context binding cannot open: refuse to start rather than fail later.
  const legacy = await countLegacySealed(store);
  if (legacy > 0) {
    await store.close();
    throw new Error(
      `The platform store holds ${legacy} value(s) sealed in the old format. ` +
        'Run `npm run store:reencrypt` once with the same SKILLFLOW_ENCRYPTION_KEY (or .data key file), then start again.',
    );
  }
  logger.info({ engine: store.engine }, 'platform store ready');
  const registry = await loadRegistry({ config, logger, secrets, store }, APPS);
  for (const p of registry.problems)
    logger.error({ app: p.app, skill: p.skill, problem: p.message }, 'app definition problem');
  logger.info(
    {
      skills: registry
        .all()
        .filter((s) => s.impl)
        .map((s) => `${s.manifest.appId}.${s.manifest.id}`),
    },
    'skills loaded',
  );
  return { config, logger, keyring, secrets, store, registry };
}
