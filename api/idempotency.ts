/**
 * The `Idempotency-Key` request header: a route that opts in answers a repeated request with
 * the first answer instead of doing the work again.
 *
 * How a route opts in: one line in its options, `config: { idempotent: true }`. The route must
 * authenticate (its owner is the principal's), or say whose keys they are with
 * `config: { idempotent: { ownerOf: (req) => ownerId } }`. {@link installIdempotency} (called
 * once in api/app.ts, before the routes) then adds, to every such route, the optional header to
 * its schema (so it is validated and documented), the 409 answer, and the hooks below.
 *
 * The rules:
 * - The key is 1-255 printable ASCII characters (0x20-0x7E); anything else is 400
 *   INVALID_PARAMETER at `idempotency-key` in `headers`.
 * - A key belongs to one owner and one route: the method, the route pattern and the path
 *   parameters (a workflow's runs are not another workflow's).
 * - The request's fingerprint is its canonical JSON, stored only as an HMAC-SHA256: the body
 *   (parsed as JSON; a text body that is not JSON counts as its exact text) and the query, with object
 *   keys sorted and no whitespace, so key order and spacing do not change it.
 * - The first request with a key claims it (one atomic insert, so of concurrent requests exactly
 *   one runs). A 2xx answer is remembered for 24 hours from the claim and replayed, same status
 *   and body, with `Idempotent-Replayed: true`, to the same key with the same fingerprint; the
 *   work is not done again. The replay goes only to an API key that holds every scope of the
 *   key whose request made the answer (another key of the owner with fewer is 403 FORBIDDEN):
 *   the route's own scope checks run in its handler, which a replay skips. The same key with
 *   another fingerprint is 409
 *   IDEMPOTENCY_KEY_REUSED; while the first is in flight, 409 IDEMPOTENCY_KEY_IN_FLIGHT with
 *   `Retry-After: 1`.
 * - An answer that is not 2xx is not remembered: the key is released, so a retry may succeed.
 *   Except on a route whose work is keyed by its claim (`leaseMs`), after a failure that leaves
 *   open whether the work started (OUTCOME_UNKNOWN): the claim is kept until its lease ends,
 *   and the retry that takes it over finds that work.
 *   So is a 2xx answer whose body is over 64 KiB (MAX_IDEMPOTENT_ANSWER_BYTES): a truncated
 *   replay would be a wrong answer. Only the status, the content type and the body replay;
 *   other headers of the first answer do not.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OpenAPIV3_1 } from 'openapi-types';
import { z } from 'zod';
import type { ErrorCode } from '../lib/errors/catalogue.js';
import { errors } from '../lib/errors/errors.js';
import { SkillflowError } from '../lib/errors/skillflow-error.js';
import { mayGrant, type Principal } from '../lib/keys.js';
import type { IdempotencyClaim, IdempotencyKeys } from '../lib/store/owners/idempotency-keys.js';
import { ErrorEnvelopeSchema } from './schemas.js';

/**
 * What a route sets in its `config` to take the header: `ownerOf` when the owner is not the
 * key's, `leaseMs` when an unanswered claim may be taken over sooner than
 * {@link IDEMPOTENCY_LEASE_MS} (a route whose work is itself idempotent by its claim, such as a
 * run start whose task id comes from the key).
 */
export type IdempotentOption =
  | true
  | {
      ownerOf?: (req: FastifyRequest) => string | undefined;
      leaseMs?: number | ((req: FastifyRequest) => number | undefined);
    };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Takes the `Idempotency-Key` header (api/idempotency.ts). */
    idempotent?: IdempotentOption;
  }
  interface FastifyRequest {
    /** The request's fingerprint and, once claimed, its claim. */
    idempotency?: { fingerprint: string; claim?: IdempotencyClaim };
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/**
 * The failures after which the work may have started although the answer is an error: an
 * unexpected error or an unavailable part of the platform (the work's start reached Temporal,
 * then its answer was lost). Every other error (bad input, a limit, an upstream's answer, a
 * deadline) says the work did not happen or has ended.
 */
const OUTCOME_UNKNOWN: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['INTERNAL', 'SERVICE_UNAVAILABLE']);
export const REPLAYED_HEADER = 'idempotent-replayed';

/** The header as a route's schema declares it. */
export const IdempotencyHeaders = z.looseObject({
  [IDEMPOTENCY_HEADER]: z
    .string()
    .regex(/^[\x20-\x7E]{1,255}$/, 'must be 1-255 printable ASCII characters')
    .optional()
    .describe(
      'Makes the request safe to repeat: the same key with the same body within 24 hours answers the first (2xx) answer again, with `Idempotent-Replayed: true`, and does nothing new. See docs/api.md, "Idempotency keys".',
    ),
});

/** A route's headers schema (none, or a zod object) with the optional `Idempotency-Key`. */
export function withIdempotencyHeader(headers: unknown): z.ZodObject {
  if (headers === undefined) return IdempotencyHeaders;
  if (!(headers instanceof z.ZodObject))
    throw new Error('an idempotent route declares headers as a zod object');
  return headers.extend(IdempotencyHeaders.shape);
}

/** JSON with object keys sorted and no whitespace. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The canonical form of a request's body and query (a text body is parsed when it is JSON). */
export function fingerprintOf(body: unknown, query: unknown): string {
  let parsed: unknown = body ?? null;
  if (typeof body === 'string') {
    try {
      parsed = body.trim() ? (JSON.parse(body) as unknown) : null;
    } catch {
      parsed = { text: body };
    }
  }
  return canonicalJson({ body: parsed, query: query ?? {} });
}

const keyOf = (req: FastifyRequest): string | undefined => {
  const value = req.headers[IDEMPOTENCY_HEADER];
  return typeof value === 'string' ? value : undefined;
};

/**
 * Refuses a replay to a key that lacks a scope of the key whose request made the answer. Holding
 * a scope is what granting it needs: the scope itself, or a wider one (`*` for `app:x`, `app:x`
 * for `skill:x.y`).
 */
function requireFirstScopes(principal: Principal | undefined, scopes: readonly string[] | undefined): void {
  if (!principal || !scopes) return;
  const missing = scopes.filter((scope) => !mayGrant(principal, scope));
  if (missing.length > 0)
    throw errors.forbidden(
      'The API key lacks a scope of the key whose request this Idempotency-Key answered.',
      { required_scope: missing },
    );
}

const toArray = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

/**
 * Adds the header, its 409 answer and its hooks to every route whose config says `idempotent`.
 * `now` is the clock of claims and expiry.
 */
export function installIdempotency(
  app: FastifyInstance,
  keys: IdempotencyKeys,
  now: () => Date = () => new Date(),
): void {
  // Before validation, so the body is as the client sent it (not with the schema's defaults).
  const fingerprint = (req: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    if (keyOf(req) !== undefined) req.idempotency = { fingerprint: fingerprintOf(req.body, req.query) };
    done();
  };

  // Requests without a key (most) pass each hook at once, without a promise.
  const claim = (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const key = keyOf(req);
    if (key === undefined || !req.idempotency) return done();
    return claimKey(req, reply, key);
  };

  const claimKey = async (req: FastifyRequest, reply: FastifyReply, key: string) => {
    if (!req.idempotency) return;
    const option = req.routeOptions.config.idempotent;
    const ownerId =
      typeof option === 'object' && option.ownerOf ? option.ownerOf(req) : req.principal?.ownerId;
    if (!ownerId) throw new Error('an idempotent route must name its owner');
    const scope = `${req.method} ${req.routeOptions.url ?? ''} ${canonicalJson(req.params ?? {})}`;
    const outcome = await keys.claim(
      { ownerId, scope, key, fingerprint: req.idempotency.fingerprint },
      now(),
      typeof option !== 'object'
        ? undefined
        : typeof option.leaseMs === 'function'
          ? option.leaseMs(req)
          : option.leaseMs,
    );
    switch (outcome.kind) {
      case 'claimed':
        req.idempotency.claim = outcome.claim;
        return;
      case 'reused':
        throw new SkillflowError('IDEMPOTENCY_KEY_REUSED');
      case 'in_flight':
        throw new SkillflowError('IDEMPOTENCY_KEY_IN_FLIGHT', undefined, { retry_after_seconds: 1 }, 1000);
      case 'answered':
        requireFirstScopes(req.principal, outcome.answer.scopes);
        return reply
          .header(REPLAYED_HEADER, 'true')
          .status(outcome.answer.status)
          .type(outcome.answer.content_type)
          .send(outcome.answer.body);
    }
  };

  // Remembers a 2xx answer, releases the key otherwise; the answer goes out either way.
  const remember = (
    req: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (err: null, payload: unknown) => void,
  ) => {
    const held = req.idempotency?.claim;
    if (!held) return done(null, payload);
    return rememberAnswer(req, reply, payload, held);
  };

  const rememberAnswer = async (
    req: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    held: NonNullable<NonNullable<FastifyRequest['idempotency']>['claim']>,
  ): Promise<unknown> => {
    req.idempotency!.claim = undefined;
    const ok = reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string';
    // A failure that leaves open whether the work started (see OUTCOME_UNKNOWN) on a route whose
    // work is keyed by its claim (`leaseMs`): the claim stays until its short lease ends, so the
    // retry takes it over with the same seed and finds the work instead of doing it twice.
    const option = req.routeOptions.config.idempotent;
    const keepClaim =
      !ok &&
      typeof option === 'object' &&
      option.leaseMs !== undefined &&
      req.failedWith !== undefined &&
      OUTCOME_UNKNOWN.has(req.failedWith);
    try {
      if (keepClaim) return payload;
      if (!ok) await keys.release(held);
      else {
        const type = reply.getHeader('content-type');
        await keys.complete(held, {
          status: reply.statusCode,
          content_type: typeof type === 'string' ? type : 'application/json; charset=utf-8',
          body: payload,
          ...(req.principal && { scopes: req.principal.scopes }),
        });
      }
    } catch (err) {
      // The work is done: its answer still goes out. The key stays claimed until its lease ends.
      req.log.error({ errName: (err as Error)?.name }, 'idempotency: could not record the answer');
    }
    return payload;
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    const schema = (route.schema ??= {}) as { headers?: unknown; response?: Record<number, unknown> };
    schema.headers = withIdempotencyHeader(schema.headers);
    schema.response = { 409: ErrorEnvelopeSchema, ...schema.response };
    route.preValidation = [...toArray(route.preValidation), fingerprint];
    route.preHandler = [...toArray(route.preHandler), claim];
    route.onSend = [...toArray(route.onSend), remember];
  });
}

/**
 * The task id of a claimed request's work: the same for a retry of the request that takes over
 * its unanswered claim, so that retry finds the task the first attempt started instead of
 * starting a second one. Undefined without a claim.
 */
export function claimedTaskId(req: FastifyRequest): string | undefined {
  const seed = claimSeed(req);
  return seed ? `task_${seed}` : undefined;
}

/**
 * The seed of a claimed request's work (see {@link claimedTaskId}), from which a route derives
 * every id its work creates; undefined without a claim.
 */
export function claimSeed(req: FastifyRequest): string | undefined {
  return req.idempotency?.claim?.taskSeed;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * Documents the replay header on the 2xx answers of every operation that takes
 * `Idempotency-Key`, and what its 409 means (in place; returns `doc`).
 */
export function documentIdempotency(doc: OpenAPIV3_1.Document): OpenAPIV3_1.Document {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method];
      const takesKey = op?.parameters?.some(
        (p) => !('$ref' in p) && p.in === 'header' && p.name.toLowerCase() === IDEMPOTENCY_HEADER,
      );
      if (!op || !takesKey) continue;
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if ('$ref' in response) continue;
        if (/^2\d\d$/.test(status)) {
          response.headers = {
            ...response.headers,
            'Idempotent-Replayed': {
              description:
                '`true` when this is the remembered first answer to an earlier request with the same Idempotency-Key and body.',
              schema: { type: 'string', enum: ['true'] },
            },
          };
        }
        if (status === '409') {
          response.description =
            'IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used with another body; IDEMPOTENCY_KEY_IN_FLIGHT: a request with it is still in flight (retry after Retry-After).';
        }
      }
    }
  }
  return doc;
}
