/**
 * The contract between an app's own HTTP routes and the API. An app that serves routes of its
 * own (a sanitised image, a proxy, a lookup outside the skill calls) puts them in its folder as
 * `routes.ts` and names them in its definition (`defineApp({ routes })`); the API mounts the
 * routes of every app of the catalogue and hands each the {@link AppRouteContext}. Apps never
 * import api/: what they need from it (authentication, scopes, the client address key, the error
 * schemas) arrives here.
 *
 * This file and `activities/apps/<app>/routes*.ts` are the only modules under activities/ that
 * may import the HTTP framework's types (eslint.config.js).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../lib/config.js';
import type { Keyring } from '../../lib/crypto/keyring.js';
import type { ErrorEnvelopeSchema } from '../../lib/errors/skillflow-error.js';
import type { Principal } from '../../lib/keys.js';
import type { Limits } from '../../lib/limits/index.js';
import type { Store } from '../../lib/store/db.js';
import type { UsageRecords } from '../../lib/store/owners/usage-records.js';

/** What the API gives the routes of every app. */
export interface ApiRouteParts {
  store: Store;
  keyring: Keyring;
  /** The API's usage records (written in batches, flushed when the API closes). */
  usage: UsageRecords;
  /** The API's limits (lib/limits/index.ts): routes charge theirs here, never build a limiter. */
  limits: Pick<Limits, 'charge'>;
  /**
   * The `onRequest` hook of authenticated routes: verifies the bearer token and applies the
   * caller's tier limit (UNAUTHENTICATED, RATE_LIMITED).
   */
  authenticate: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** The caller's principal, if it may call this skill; FORBIDDEN otherwise. */
  requireSkillScope: (req: FastifyRequest, appId: string, skillId: string) => Principal;
  /** The OpenAPI security requirement of authenticated routes. */
  bearer: { bearerAuth: never[] }[];
  /** The key the per-address limits count the request under. */
  clientKey: (req: FastifyRequest) => string;
  /** The documented error answers of a route, one envelope schema per status. */
  errorResponses: (...statuses: number[]) => Record<number, typeof ErrorEnvelopeSchema>;
}

/**
 * What an app's routes receive: the API's parts, the configuration slice its app selected and the
 * app's services (`defineApp({ config, services })`).
 */
export interface AppRouteContext<C = Config, S = undefined> extends ApiRouteParts {
  config: C;
  services: S;
}

/** OpenAPI tags an app's routes use that the API does not declare itself. */
type RouteTags = readonly { name: string; description: string }[];

/** An app's routes as written in its `routes.ts`: a Fastify plugin built from its context. */
export interface AppRoutes<C = Config, S = undefined> {
  tags?: RouteTags;
  plugin: (ctx: AppRouteContext<C, S>) => FastifyPluginAsyncZod;
}

/** An opened app's routes, bound to its slice and services: the API mounts them with its parts. */
export interface MountableRoutes {
  tags?: RouteTags;
  plugin: (parts: ApiRouteParts) => FastifyPluginAsyncZod;
}
