/**
 * /v1/sessions: first-party workspace sessions. The workspace signs in once with an API key (or a
 * one-time sign-in link) and from then on sends only the session cookie: HttpOnly, SameSite=Strict,
 * Secure in production, rotated every SESSION_ROTATE_S, ended by sign-out, by revocation here or
 * of its key, after SESSION_IDLE_TIMEOUT_S unused and SESSION_MAX_AGE_S at the latest. A request
 * over a session that changes state carries the session's CSRF token in `X-CSRF-Token`.
 *
 * - POST /v1/sessions (API key): signs in; sets the cookie, answers the CSRF token.
 * - GET /v1/sessions/current (session): this session and its CSRF token.
 * - DELETE /v1/sessions/current (session): signs out; clears the cookie.
 * - GET /v1/sessions (`keys` scope): the owner's live sessions.
 * - DELETE /v1/sessions/{session_id} (`keys` scope): ends one of them.
 * - POST /v1/sessions/sign-in-links (API key): a one-time workspace sign-in link.
 * - POST /v1/sessions/exchange (public, per-IP limited): spends a sign-in link's code.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errors } from '../../lib/errors/errors.js';
import { SIGN_IN_CODE, userAgentLabel } from '../../lib/web-sessions.js';
import { authenticate, BEARER, principalOf, requireScope } from '../auth.js';
import { limitPerIp } from '../client-limits.js';
import type { ApiDeps } from '../deps.js';
import { errorResponses } from '../schemas.js';
import type { SessionsService, SignedIn, WebSessionRow } from '../services/sessions.js';

const SessionSchema = z.object({
  session_id: z.string(),
  key_id: z.string().describe('The API key the session signed in with; it acts with its scopes.'),
  created_at: z.string(),
  last_used_at: z.string().describe('To the minute.'),
  expires_at: z.string().describe('When it ends unless used again (never after its maximum age).'),
  user_agent: z.string().nullable().describe('The signing-in browser, at most 200 characters.'),
  current: z.boolean().describe('True for the session this request came over.'),
});
const SignedInSchema = z.object({
  session: SessionSchema,
  csrf_token: z.string().describe('Send it in `X-CSRF-Token` on every request that changes state.'),
});
const CurrentSchema = SignedInSchema.extend({
  scopes: z.array(z.string()).describe("The signing-in key's scopes, which the session acts with."),
});
const SessionParams = z.object({ session_id: z.string().min(1).max(64) });
const ExchangeBody = z
  .object({ code: z.string().max(128).regex(SIGN_IN_CODE, 'must be a sign-in code (sic_...)') })
  .strict();
const SignInLinkSchema = z.object({
  url: z
    .string()
    .describe('Open it once in a browser; the code is in the fragment, never sent in a request line.'),
  expires_at: z.string(),
});

function view(s: WebSessionRow, currentId: string | undefined): z.infer<typeof SessionSchema> {
  return {
    session_id: s.id,
    key_id: s.keyId,
    created_at: s.createdAt.toISOString(),
    last_used_at: s.lastUsedAt.toISOString(),
    expires_at: s.expiresAt.toISOString(),
    user_agent: s.userAgent,
    current: s.id === currentId,
  };
}

const signedInBody = (s: SignedIn) => ({ session: view(s.session, s.session.id), csrf_token: s.csrfToken });

export const sessionRoutes =
  (deps: ApiDeps, sessions: SessionsService): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['keys'];
    const origin = deps.config.api.PUBLIC_URL?.replace(/\/+$/, '') ?? '';

    const publicRoutes: FastifyPluginAsyncZod = async (open) => {
      open.addHook('onRequest', limitPerIp(app.limits));
      open.post(
        '/v1/sessions/exchange',
        {
          schema: {
            tags,
            summary: 'Sign the workspace in with a one-time sign-in link (sets the session cookie)',
            body: ExchangeBody,
            response: { 201: SignedInSchema, ...errorResponses(400, 401, 429) },
          },
        },
        async (req, reply) => {
          const signedIn = await sessions.exchange(req.body.code, userAgentLabel(req.headers['user-agent']));
          return reply.status(201).header('set-cookie', signedIn.cookies).send(signedInBody(signedIn));
        },
      );
    };
    await app.register(publicRoutes);

    const sessionRoutesAuthed: FastifyPluginAsyncZod = async (authed) => {
      authed.addHook('onRequest', authenticate(deps.store));

      authed.post(
        '/v1/sessions',
        {
          schema: {
            tags,
            security: BEARER,
            summary: 'Sign the workspace in with an API key (sets the session cookie)',
            response: { 201: SignedInSchema, ...errorResponses(401, 403, 429) },
          },
        },
        async (req, reply) => {
          const signedIn = await sessions.signIn(principalOf(req), userAgentLabel(req.headers['user-agent']));
          return reply.status(201).header('set-cookie', signedIn.cookies).send(signedInBody(signedIn));
        },
      );

      authed.post(
        '/v1/sessions/sign-in-links',
        {
          schema: {
            tags,
            security: BEARER,
            summary: 'Make a one-time workspace sign-in link (no key in the URL)',
            response: { 201: SignInLinkSchema, ...errorResponses(401, 403, 429) },
          },
        },
        async (req, reply) => {
          const { code, expiresAt } = await sessions.createSignInCode(principalOf(req));
          const base = origin || `${req.protocol}://${req.host}`;
          return reply
            .status(201)
            .header('cache-control', 'no-store')
            .send({ url: `${base}/#sign-in/${code}`, expires_at: expiresAt.toISOString() });
        },
      );

      authed.get(
        '/v1/sessions/current',
        {
          schema: {
            tags,
            summary: 'This session and its CSRF token (session only)',
            response: { 200: CurrentSchema, ...errorResponses(401, 404, 429) },
          },
        },
        async (req, reply) => {
          const p = principalOf(req);
          const current = p.sessionId
            ? (await sessions.list(p.ownerId)).find((s) => s.id === p.sessionId)
            : undefined;
          if (!current) throw errors.notFound('This request did not come over a session.');
          return reply.header('cache-control', 'no-store').send({
            session: view(current, current.id),
            csrf_token: sessions.csrfToken(current.id),
            scopes: p.scopes,
          });
        },
      );

      authed.delete(
        '/v1/sessions/current',
        {
          schema: {
            tags,
            summary: 'Sign out: end this session and clear its cookie',
            response: { 204: z.null(), ...errorResponses(401, 403, 404, 429) },
          },
        },
        async (req, reply) => {
          const p = principalOf(req);
          if (!p.sessionId) throw errors.notFound('This request did not come over a session.');
          await sessions.revoke(p.ownerId, p.sessionId);
          return reply.status(204).header('set-cookie', sessions.clearCookies()).send(null);
        },
      );

      authed.get(
        '/v1/sessions',
        {
          schema: {
            tags,
            security: BEARER,
            summary: "The owner's live workspace sessions, newest first",
            response: {
              200: z.object({ sessions: z.array(SessionSchema) }),
              ...errorResponses(401, 403, 429),
            },
          },
        },
        async (req) => {
          const p = requireScope(req, 'keys');
          return { sessions: (await sessions.list(p.ownerId)).map((s) => view(s, p.sessionId)) };
        },
      );

      authed.delete(
        '/v1/sessions/:session_id',
        {
          schema: {
            tags,
            security: BEARER,
            summary: 'End one of the owner’s workspace sessions',
            params: SessionParams,
            response: { 204: z.null(), ...errorResponses(401, 403, 404, 429) },
          },
        },
        async (req, reply) => {
          const p = requireScope(req, 'keys');
          await sessions.revoke(p.ownerId, req.params.session_id);
          if (req.params.session_id === p.sessionId) reply.header('set-cookie', sessions.clearCookies());
          return reply.status(204).send(null);
        },
      );
    };
    await app.register(sessionRoutesAuthed);
  };
