/**
 * The API's composition: the Fastify app over the platform's parts (with its Temporal client),
 * listening on HOST:PORT. Outside production it also makes sure the development admin key exists;
 * it loads the definitions of DEFINITIONS_DIR for DEFINITIONS_OWNER_ID.
 */
import path from 'node:path';
import { ensureDevKey } from '../lib/dev-key.js';
import { verifyToken } from '../lib/keys.js';
import type { Platform } from '../platform/create-platform.js';
import { buildApp, type App } from './app.js';
import type { ApiDeps } from './deps.js';
import { createServices } from './services/index.js';

export interface RunningApi {
  app: App;
  /** The development admin key and its file (outside production), for the start banner. */
  devKey: { token: string; file: string } | undefined;
  /**
   * A one-time workspace sign-in code for the development key (outside production), for the
   * start banner's sign-in link: spent on first use, expires after SIGN_IN_LINK_TTL_S.
   */
  signInCode: string | undefined;
}

/** The API's dependencies: the platform's parts; the platform must hold a Temporal client. */
export function apiDeps(platform: Platform): ApiDeps {
  const { config, logger, store, registry, keyring, secrets, resolveHost, temporal, limits } = platform;
  if (!temporal)
    throw new Error('The API needs a platform with a Temporal client (createPlatform parts.temporal).');
  return {
    config,
    logger,
    store,
    temporal,
    registry,
    keyring,
    secrets,
    limits,
    ...(resolveHost ? { resolveHost } : {}),
  };
}

/** Builds the API of `platform`, listens, and loads the example definitions. */
export async function startApi(platform: Platform): Promise<RunningApi> {
  const { config, store } = platform;
  const deps = apiDeps(platform);
  const app = await buildApp(deps);
  await app.listen({ host: config.api.HOST, port: config.api.PORT });
  const devKey =
    config.process.NODE_ENV !== 'production'
      ? await ensureDevKey(store, config.process.dataDir, config.process.DEFINITIONS_OWNER_ID)
      : undefined;
  const principal = devKey ? await verifyToken(store, devKey.token) : undefined;
  const signInCode = principal ? (await app.sessions!.createSignInCode(principal)).code : undefined;
  await loadDefinitionsDir(deps);
  return { app, devKey, signInCode };
}

/**
 * Loads DEFINITIONS_DIR for DEFINITIONS_OWNER_ID. Every API replica does this at start, at the
 * same time as the others: saving a definition is idempotent (an identical save that another
 * replica made first counts as done), so the loads agree and report nothing.
 */
export async function loadDefinitionsDir(deps: ApiDeps): Promise<{ loaded: string[]; failed: string[] }> {
  const { config, logger } = deps;
  const result = await createServices(deps).engine.loadFolder(
    path.resolve(config.process.rootDir, config.process.DEFINITIONS_DIR),
    config.process.DEFINITIONS_OWNER_ID,
  );
  logger.info(
    { loaded: result.loaded.length, failed: result.failed },
    'workflow definitions loaded from DEFINITIONS_DIR',
  );
  return result;
}
