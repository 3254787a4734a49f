/**
 * Mounts the HTTP routes the apps of the catalogue serve themselves (`defineApp({ routes })`,
 * activities/registry/routes.ts), each with the same context: the API's store, keyring, usage
 * records, limits, authentication, scope check, client address key and error schemas.
 */
import type { FastifyInstance } from 'fastify';
import type { ApiRouteParts } from '../activities/registry/routes.js';
import type { Limits } from '../lib/limits/index.js';
import type { UsageRecords } from '../lib/store/owners/usage-records.js';
import { authenticate, BEARER, requireSkillScope } from './auth.js';
import { clientKey } from './client-limits.js';
import type { ApiDeps } from './deps.js';
import { errorResponses } from './schemas.js';

/** The OpenAPI tags the apps' routes declare, in app id order. */
export function appRouteTags(deps: ApiDeps): { name: string; description: string }[] {
  return deps.registry.routes.flatMap((routes) => routes.tags ?? []);
}

/** Registers every app's routes on `app`. */
export async function mountAppRoutes(
  app: FastifyInstance,
  deps: ApiDeps,
  usage: UsageRecords,
  limits: Limits,
): Promise<void> {
  const parts: ApiRouteParts = {
    store: deps.store,
    keyring: deps.keyring,
    usage,
    limits,
    authenticate: authenticate(deps.store),
    requireSkillScope,
    bearer: BEARER,
    clientKey,
    errorResponses,
  };
  for (const routes of deps.registry.routes) await app.register(routes.plugin(parts));
}
