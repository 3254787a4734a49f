/**
 * The composition root: builds the parts of a skillflow process from its configuration, once.
 * `npm start` (scripts/main.ts) builds its process through {@link createPlatform} and hands it to
 * the API (api/main.ts) and the worker (worker/index.ts); tests, helper processes and the
 * workflow benchmark and the SDK's type generator do the same. Nothing else assembles services
 * by hand (the store-only scripts, keys:admin and store:reencrypt, open just the store), and no
 * module looks a service up: each part receives what it uses from here. An app's own services
 * (the encyclopedia's upstream service with its cache and outbound budget) are built once when
 * the registry opens the app; this module takes them from the registry by the app's definition
 * and hands them to the platform parts that use them (chat delivery, the decide step).
 *
 * What a caller already has (an opened store, a fixed keyring, a catalogue of test apps, a
 * resolver for webhook hosts, a Temporal client) it passes in {@link PlatformParts}; everything
 * else comes from the configuration.
 */
import path from 'node:path';
import { APPS } from '../activities/apps/index.js';
import { encyclopediaApp, referenceResolver } from '../activities/apps/encyclopedia/index.js';
import { decideStepDeps } from '../activities/decision/index.js';
import { createActivities, type ActivityFn } from '../activities/index.js';
import { platformActivities } from '../activities/platform/index.js';
import type { AppDefinition } from '../activities/registry/define.js';
import { loadRegistry, type Registry } from '../activities/registry/registry.js';
import type { Config } from '../lib/config.js';
import { loadKeyring, type Keyring } from '../lib/crypto/keyring.js';
import { createLimits, type Limits } from '../lib/limits/index.js';
import { checkLimitSettings } from '../lib/limits/settings.js';
import { createProcessLogger, type Logger } from '../lib/logger.js';
import { webhookPolicy, type ResolveHost } from '../lib/net/webhook.js';
import { createSecretStore, type SecretStore } from '../lib/secrets.js';
import { openStore, type Store } from '../lib/store/db.js';
import { UsageRecords } from '../lib/store/owners/usage-records.js';
import { countLegacySealed } from '../lib/store/reencrypt.js';
import { errorCode, START_WAIT_MS } from '../lib/start-wait.js';
import { temporalWaitLogger } from '../lib/temporal/wait-log.js';
import { connectTemporal, type TemporalClient } from '../lib/temporal/client.js';
import { storeQueryLogger } from '../lib/tracing/store-queries.js';

/** Parts a caller already has; each one left out is built from the configuration. */
export interface PlatformParts {
  /** The catalogue to serve (default: every product app). */
  apps?: readonly AppDefinition[];
  logger?: Logger;
  keyring?: Keyring;
  secrets?: SecretStore;
  /** An opened store; the platform owns it from now on and closes it in {@link Platform.close}. */
  store?: Store;
  /** Resolves chat webhook hosts (default: the system resolver). */
  resolveHost?: ResolveHost;
  /** Where secrets without SECRETS_DIR are read from (default: the process environment). */
  env?: NodeJS.ProcessEnv;
  /**
   * The Temporal client the API starts runs with and the owner quotas count open work with: a
   * client the caller owns, or the address of a server to connect to (with the payload codec of
   * the platform's keyring; {@link Platform.close} then closes it). A process without one (a
   * worker-only helper) has limits that refuse `owner_quota` charges.
   */
  temporal?: TemporalClient | { address: string };
}

/** The parts of one process, built once. */
export interface Platform {
  config: Config;
  logger: Logger;
  keyring: Keyring;
  secrets: SecretStore;
  store: Store;
  registry: Registry;
  resolveHost: ResolveHost | undefined;
  temporal: TemporalClient | undefined;
  /**
   * Every limit of the process (lib/limits/index.ts), one instance for the API and the worker:
   * the worker's activities charge each provider's limit and each owner's share of it, the API
   * its tier, address, credit, quota and queue limits.
   */
  limits: Limits;
  /**
   * Every activity a worker of this process registers: one per skill (`<app>.<skill>`), metered
   * against the provider limits and the calling owner's share, and the platform's own (chat
   * delivery, embeds, the decide step).
   */
  activities: Record<string, ActivityFn>;
  /** Closes what the platform holds: the store, and the Temporal client it connected. */
  close(): Promise<void>;
}

/** Opens the configured store and refuses one that still holds values of the old sealed format. */
async function openConfiguredStore(config: Config, logger: Logger): Promise<Store> {
  const store = await openStore({
    databaseUrl: config.store.DATABASE_URL,
    onQuery: storeQueryLogger(config.store.DATABASE_URL ? 'postgres' : 'pglite'),
    pgliteDir: path.join(config.store.dataDir, 'pglite'),
    // The code only: a driver message may name hosts or users.
    onPoolError: (err) =>
      logger.error({ errName: err.name, errCode: (err as { code?: string }).code }, 'store connection lost'),
    waitMs: START_WAIT_MS,
    onWaiting: (err, retryInMs) =>
      logger.warn({ errCode: errorCode(err), retryInMs }, 'platform store not reachable yet; trying again'),
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
  return store;
}

function workerActivities(parts: Omit<Platform, 'activities' | 'close'>): Record<string, ActivityFn> {
  const { config, store, keyring, secrets, registry, limits } = parts;
  // `@encyclopedia:` references resolve through the encyclopedia app's one service, when the
  // catalogue serves that app; without it chat messages keep them as written and decide steps
  // get no source context.
  const encyclopedia = registry.servicesOf(encyclopediaApp);
  return {
    ...createActivities(registry, limits.providers, limits.ownerShare, new UsageRecords(store)),
    ...platformActivities(
      store,
      keyring,
      webhookPolicy(config.security, parts.resolveHost),
      encyclopedia && referenceResolver(encyclopedia),
      decideStepDeps(config, secrets, store, encyclopedia),
      { serverSealed: config.security.CHAT_SERVER_SEALED },
    ),
  };
}

async function temporalClient(
  config: Config,
  keyring: Keyring,
  given: PlatformParts['temporal'],
  logger: Logger,
): Promise<TemporalClient | undefined> {
  if (!given || !('address' in given)) return given;
  return connectTemporal(given.address, config.temporal.TEMPORAL_NAMESPACE, keyring, {
    waitMs: START_WAIT_MS,
    onWaiting: temporalWaitLogger(logger, given.address),
  });
}

/** Builds the process's parts from `config`; see {@link PlatformParts} for what may be given. */
export async function createPlatform(config: Config, given: PlatformParts = {}): Promise<Platform> {
  const logger = given.logger ?? createProcessLogger(config.process);
  const keyring =
    given.keyring ?? loadKeyring(config.security.SKILLFLOW_ENCRYPTION_KEY, config.security.dataDir);
  if (!given.keyring)
    logger.info({ keyId: keyring.activeKeyId, origin: keyring.origin }, 'payload encryption key loaded');
  const secrets = given.secrets ?? createSecretStore(config.security.SECRETS_DIR, given.env ?? process.env);
  const store = given.store ?? (await openConfiguredStore(config, logger));
  // Every process on the store enforces the same limits: refuse to start with other values.
  await checkLimitSettings(store, config, logger).catch(async (err: unknown) => {
    await store.close();
    throw err;
  });
  const registry = await loadRegistry({ config, logger, secrets, store }, given.apps ?? APPS);
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
  const { resolveHost } = given;
  const temporal = await temporalClient(config, keyring, given.temporal, logger).catch(
    async (err: unknown) => {
      await store.close();
      throw err;
    },
  );
  const limits = createLimits({ config, store, keyring, secrets, ...(temporal ? { temporal } : {}) });
  const parts = { config, logger, keyring, secrets, store, registry, resolveHost, temporal, limits };
  const owned = given.temporal && 'address' in given.temporal ? temporal : undefined;
  return {
    ...parts,
    activities: workerActivities(parts),
    async close() {
      await owned?.close();
      await store.close();
    },
  };
}
