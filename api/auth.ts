/**
 * Bearer-token authentication for the /v1 routes. `request.principal` is set by the
 * `authenticate` preHandler; routes then check scopes. Failures are 401/403 envelopes.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type {} from '../lib/limits/tier-limits.js';
import { allows, allowsSkill, verifyToken, type Principal } from '../lib/keys.js';
import { SkillflowError } from '../lib/errors/skillflow-error.js';
import type { Store } from '../lib/store/db.js';

declare module 'fastify' {
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
 * The preHandler of authenticated routes: verifies the bearer token, then applies the per-tier
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
    const principal = await verifyToken(store, m[1]!);
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

export function requireScope(req: FastifyRequest, scope: 'workflows' | 'keys'): Principal {
  const p = principalOf(req);
  if (!allows(p, scope))
    throw new SkillflowError('FORBIDDEN', `The API key lacks the "${scope}" scope.`, {
      required_scope: scope,
    });
  return p;
}

export function requireSkillScope(req: FastifyRequest, appId: string, skillId: string): Principal {
  const p = principalOf(req);
  if (!allowsSkill(p, appId, skillId)) {
    throw new SkillflowError('FORBIDDEN', `The API key is not scoped to ${appId}.${skillId}.`, {
      required_scope: [`app:${appId}`, `skill:${appId}.${skillId}`],
    });
  }
  return p;
}

/** OpenAPI security requirement for authenticated routes. */
export const BEARER = [{ bearerAuth: [] }];
