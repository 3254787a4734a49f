/**
 * Bearer-token authentication for the /v1 routes. `request.principal` is set by the
 * `authenticate` onRequest hook, so an unauthenticated request is refused before its body is
 * read or parsed; routes then check scopes. Failures are 401/403 envelopes.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PrincipalCache } from '../lib/key-cache.js';
import { verifyToken, type NamedScope, type Principal } from '../lib/keys.js';
import { CSRF_HEADER, csrfMatches, sessionTokenFrom } from '../lib/web-sessions.js';
import type { SessionsService } from './services/sessions.js';
import { requireNamedScope, requireSkill } from './scopes.js';
import { errors } from '../lib/errors/errors.js';
import type { Store } from '../lib/store/db.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by api/app.ts: verified keys cached for API_KEY_CACHE_TTL_MS (lib/key-cache.ts). */
    principals?: PrincipalCache;
    /** Set by api/app.ts: first-party workspace sessions (the session cookie). */
    sessions?: SessionsService;
  }
  interface FastifyRequest {
    principal?: Principal;
    /**
     * Set on routes that queue (`config.queueWhenLimited`): the tier counter is left to the call,
     * which charges it together with the provider limits in one statement. If the request ends
     * before that (bad input, scope, unknown skill), {@link chargeDeferredTier} charges it.
     */
    tierDeferred?: boolean;
  }
  interface FastifyContextConfig {
    /** Skill calls: over the tier limit the call is queued to the reset, not rejected. */
    queueWhenLimited?: boolean;
  }
}

/**
 * The onRequest hook of authenticated routes (register it with `addHook('onRequest', …)`, never
 * as a preHandler: the body must not be read for a caller without a valid token). Verifies the
 * bearer token (through the app's key cache, lib/key-cache.ts), then applies the per-tier rate
 * limit (`limits.charge('tier')`, lib/limits/tier-limits.ts), which sets the X-RateLimit-* headers
 * on every authenticated response; once it is used up, the route answers 429 RATE_LIMITED.
 * A route that queues instead (`config.queueWhenLimited`, skill calls) gets
 * `request.tierDeferred`: the call charges the tier counter with its other limits and queues
 * when it is used up; the route must also register {@link chargeDeferredTier}.
 */
export function authenticate(store: Store) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const header = req.headers.authorization;
    const principal = header ? await byBearer(store, req, header) : await bySession(req, reply);
    req.principal = principal;
    if (req.routeOptions.config.queueWhenLimited === true) {
      req.tierDeferred = true;
      return;
    }
    const limited = await req.server.limits.charge('tier', { principal, headers: reply });
    if (limited) throw limited;
  };
}

async function byBearer(store: Store, req: FastifyRequest, header: string): Promise<Principal> {
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  if (!m) throw errors.unauthenticated('The Authorization header must be "Bearer <API token>".');
  const token = m[1]!;
  const principal = await (req.server.principals?.verify(token) ?? verifyToken(store, token));
  if (!principal) throw errors.unauthenticated('The API token is unknown or revoked.');
  return principal;
}

/** Methods that change nothing: a session request without the CSRF token may use them. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A first-party session from the session cookie (api/services/sessions.ts). A request that
 * changes state must also carry the session's CSRF token in `X-CSRF-Token`; the cookie alone
 * (which a browser also sends from a form on another site, were it not SameSite=Strict) is never
 * enough. A rotated token is set on the answer; an ended session's cookie is cleared.
 */
async function bySession(req: FastifyRequest, reply: FastifyReply): Promise<Principal> {
  const sessions = req.server.sessions;
  const token = sessions && sessionTokenFrom(req.headers.cookie, sessions.cookie);
  if (!sessions || !token) throw errors.unauthenticated('Send Authorization: Bearer <API token>.');
  const resumed = await sessions.resume(token);
  if (!resumed) {
    reply.header('set-cookie', sessions.clearCookies());
    throw errors.unauthenticated('The session has ended; sign in again.');
  }
  if (
    !SAFE_METHODS.has(req.method) &&
    !csrfMatches(sessions.keyring, resumed.session.id, req.headers[CSRF_HEADER])
  )
    throw errors.forbidden('A request over a session must carry its CSRF token in the X-CSRF-Token header.', {
      header: 'X-CSRF-Token',
    });
  if (resumed.cookie) reply.header('set-cookie', resumed.cookie);
  return resumed.principal;
}

/**
 * The onSend hook of routes that queue: charges the tier counter (and sets its headers) when
 * the request ended before the call charged it, so every authenticated response counts once.
 */
export function chargeDeferredTier(
  req: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: null, payload: unknown) => void,
): Promise<unknown> | void {
  // A call that charged the tier itself (most) passes at once, without a promise.
  if (!req.tierDeferred || !req.principal) return done(null, payload);
  req.tierDeferred = false;
  return req.server.limits.charge('tier', { principal: req.principal, headers: reply }).then(() => payload);
}

/**
 * Takes over a deferred tier charge: the headers object to give the call (which charges the
 * tier counter with its other limits), or undefined when there is nothing left to charge.
 */
export function takeDeferredTier(req: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
  if (!req.tierDeferred) return undefined;
  req.tierDeferred = false;
  return reply;
}

export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw errors.unauthenticated();
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
