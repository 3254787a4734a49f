/**
 * Bearer-token authentication for the /v1 routes. `request.principal` is set by the
 * `authenticate` onRequest hook, so an unauthenticated request is refused before its body is
 * read or parsed; routes then check scopes. Failures are 401/403 envelopes.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PrincipalCache } from '../lib/key-cache.js';
import type { TierRateLimits } from '../lib/limits/tier-limits.js';
import { verifyToken, type NamedScope, type Principal } from '../lib/keys.js';
import { requireNamedScope, requireSkill } from './scopes.js';
import { SkillflowError } from '../lib/errors/skillflow-error.js';
import type { Store } from '../lib/store/db.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by api/app.ts; `authenticate` applies it after verifying the token. */
    tierRateLimits?: TierRateLimits;
    /** Set by api/app.ts: verified keys cached for API_KEY_CACHE_TTL_MS (lib/key-cache.ts). */
    principals?: PrincipalCache;
  }
  interface FastifyRequest {
    principal?: Principal;
    /** Set on routes that queue (`config.queueWhenLimited`) when the tier limit is used up. */
    tierLimited?: SkillflowError;
  }
  interface FastifyContextConfig {
    /** Skill calls: over the tier limit the call is queued to the reset, not rejected. */
    queueWhenLimited?: boolean;
  }
}

/**
 * The onRequest hook of authenticated routes (register it with `addHook('onRequest', …)`, never
 * as a preHandler: the body must not be read for a caller without a valid token). Verifies the bearer token, then applies the per-tier
 * rate limit (lib/limits/tier-limits.ts) when the app has one, which sets the X-RateLimit-*
 * headers on every authenticated response. Once it is used up, a route that queues gets
 * `request.tierLimited` and queues the call; every other route answers 429 RATE_LIMITED.
 */
export function authenticate(store: Store) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const header = req.headers.authorization;
    if (!header) throw new SkillflowError('UNAUTHENTICATED', 'Send Authorization: Bearer <API token>.');
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    if (!m)
      throw new SkillflowError('UNAUTHENTICATED', 'The Authorization header must be "Bearer <API token>".');
    const token = m[1]!;
    const principal = await (req.server.principals?.verify(token) ?? verifyToken(store, token));
    if (!principal) throw new SkillflowError('UNAUTHENTICATED', 'The API token is unknown or revoked.');
    req.principal = principal;
    const limited = await req.server.tierRateLimits?.apply(principal, reply);
    if (!limited) return;
    if (req.routeOptions.config.queueWhenLimited !== true) throw limited;
    req.tierLimited = limited;
  };
}

export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw new SkillflowError('UNAUTHENTICATED');
  return req.principal;
}

/** The principal, if it holds the named scope; FORBIDDEN otherwise. */
export function requireScope(req: FastifyRequest, scope: NamedScope): Principal {
  return requireNamedScope(principalOf(req), scope);
}

/** The principal, if it may call this skill; FORBIDDEN otherwise. */
export function requireSkillScope(req: FastifyRequest, appId: string, skillId: string): Principal {
  return requireSkill(principalOf(req), appId, skillId);
}

/** OpenAPI security requirement for authenticated routes. */
export const BEARER = [{ bearerAuth: [] }];
