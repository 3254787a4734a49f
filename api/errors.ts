/**
 * The one API error handler: maps any failure to `{ error: { code, message, details } }`.
 * Covers SkillflowError, zod request validation, fastify's own errors (body parse, size, media
 * type), and Temporal's WorkflowFailedError → ActivityFailure → ApplicationFailure chain.
 * Unknown errors become INTERNAL; their text is logged (never user data) but not sent.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ScheduleNotFoundError } from '@temporalio/client';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { FAIL_CODE_PATTERN } from '../definitions/index.js';
import { isErrorCode, type ErrorCode } from '../lib/errors/catalogue.js';
import { errors } from '../lib/errors/errors.js';
import { issuesFromZod, SkillflowError, toEnvelope } from '../lib/errors/skillflow-error.js';
import type { AllowedMethods } from './allowed-methods.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The catalogue code of the error this request was answered with, once answered with one. */
    failedWith?: ErrorCode;
  }
}

/** `/requests/0/tlds` → `['requests', 0, 'tlds']` */
function pointerSegments(pointer: string): PropertyKey[] {
  return pointer
    .split('/')
    .filter(Boolean)
    .map((seg) => seg.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((seg) => (/^\d+$/.test(seg) ? Number(seg) : seg));
}

/** One entry of fastify-type-provider-zod's `err.validation` (a zod issue, spread). */
interface FastifyValidationIssue {
  instancePath: string;
  message?: string;
  keyword?: string;
  params?: { keys?: string[] };
}

interface FailureLike {
  type?: unknown;
  message?: unknown;
  details?: unknown;
  cause?: unknown;
}

/**
 * Walks a Temporal failure chain for a fail step's failure: the author's own code (not a
 * catalogue one) with the rendered message and the step id in its (encoded) details.
 */
export function fromFailStep(
  err: unknown,
): { code: string; message: string; details: { step: string } } | undefined {
  let cur = err as FailureLike | undefined;
  for (let depth = 0; cur && depth < 8; depth++) {
    const first: unknown = Array.isArray(cur.details) ? cur.details[0] : undefined;
    const details = first && typeof first === 'object' ? (first as Record<string, unknown>) : {};
    const { step, fail_message: message } = details;
    if (
      typeof cur.type === 'string' &&
      FAIL_CODE_PATTERN.test(cur.type) &&
      !isErrorCode(cur.type) &&
      typeof step === 'string' &&
      typeof message === 'string'
    )
      return { code: cur.type, message, details: { step } };
    cur = cur.cause as FailureLike | undefined;
  }
  return undefined;
}

/** Walks a Temporal failure chain for an ApplicationFailure whose type is a catalogue code. */
export function fromTemporalFailure(err: unknown): SkillflowError | undefined {
  let cur = err as FailureLike | undefined;
  for (let depth = 0; cur && depth < 8; depth++) {
    if (isErrorCode(cur.type)) {
      const details =
        Array.isArray(cur.details) && cur.details[0] && typeof cur.details[0] === 'object'
          ? (cur.details[0] as Record<string, unknown>)
          : {};
      const seconds = details.retry_after_seconds;
      const retryAfterMs = typeof seconds === 'number' && seconds > 0 ? seconds * 1000 : undefined;
      return new SkillflowError(
        cur.type,
        typeof cur.message === 'string' ? cur.message : undefined,
        details,
        retryAfterMs,
      );
    }
    cur = cur.cause as FailureLike | undefined;
  }
  return undefined;
}

/**
 * The catalogue error of any failure. `bodyLimit` is the answering route's body limit in bytes,
 * which a 413 states.
 */
export function toSkillflowError(err: unknown, bodyLimit?: number): SkillflowError {
  if (err instanceof SkillflowError) return err;
  if (hasZodFastifySchemaValidationErrors(err)) {
    const location = (err as { validationContext?: string }).validationContext ?? 'body';
    const issues = issuesFromZod(
      err.validation.map((v: FastifyValidationIssue) => ({
        path: pointerSegments(v.instancePath),
        message: v.message ?? 'invalid',
        code: v.keyword,
        keys: v.params?.keys,
      })),
    );
    return errors.invalidRequest(location, issues);
  }
  const fromTemporal = fromTemporalFailure(err);
  if (fromTemporal) return fromTemporal;
  // A schedule removed meanwhile (its definition deleted by a concurrent request).
  if (err instanceof ScheduleNotFoundError) return errors.notFound();
  const fe = err as Partial<FastifyError>;
  switch (fe.code) {
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_MAX_PARAM_LENGTH':
      // The router refuses these before zod sees them; the message names the rule, not the text.
      return errors.invalidParameter(
        [{ path: '', message: 'too long or not valid URL encoding', location: 'params' }],
        'Invalid params: a path parameter is too long or not valid URL encoding.',
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new SkillflowError('UNSUPPORTED_MEDIA_TYPE');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyLimit ? errors.payloadTooLarge(bodyLimit) : new SkillflowError('PAYLOAD_TOO_LARGE');
  }
  if (fe.statusCode === 400 && (fe.code?.startsWith('FST_ERR_CTP') || err instanceof SyntaxError)) {
    return errors.invalidBody();
  }
  if (fe.statusCode === 405) return new SkillflowError('METHOD_NOT_ALLOWED');
  return new SkillflowError('INTERNAL');
}

/** Retry-After for a 429 that knows no time of its own (every 429 carries one). */
export const DEFAULT_RETRY_AFTER_SECONDS = 60;

export function sendError(reply: FastifyReply, err: SkillflowError): FastifyReply {
  reply.request.failedWith = err.code;
  if (err.retryAfterMs !== undefined) {
    reply.header('retry-after', Math.max(1, Math.ceil(err.retryAfterMs / 1000)));
  } else if (err.status === 429) {
    reply.header('retry-after', DEFAULT_RETRY_AFTER_SECONDS);
  }
  return reply.status(err.status).type('application/json').send(toEnvelope(err));
}

/**
 * The answer to a request no route takes: 405 METHOD_NOT_ALLOWED with an `Allow` header when
 * the path is known under other methods, else 404 ROUTE_NOT_FOUND.
 */
export function sendUnrouted(
  reply: FastifyReply,
  allowed: AllowedMethods,
  literalOnly = false,
): FastifyReply {
  const methods = allowed.for(reply.request.url, literalOnly);
  if (methods.length === 0) return sendError(reply, new SkillflowError('ROUTE_NOT_FOUND'));
  reply.header('allow', methods.join(', '));
  return sendError(reply, new SkillflowError('METHOD_NOT_ALLOWED'));
}

/**
 * Fastify's `frameworkErrors` option: errors its router raises before any route or hook runs
 * (bad URL encoding, a path parameter over `maxParamLength`) get the envelope too.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void sendError(reply, toSkillflowError(err));
}

const CLIENT_ERRORS: Partial<Record<string, ErrorCode>> = {
  HPE_HEADER_OVERFLOW: 'HEADERS_TOO_LARGE',
  ERR_HTTP_REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
};

/**
 * Fastify's `clientErrorHandler` option: requests Node's HTTP parser refuses (headers too large,
 * malformed request line, timeouts) never reach Fastify; answer them in the envelope on the raw
 * socket, then close it, as Node itself does.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const mapped = new SkillflowError(CLIENT_ERRORS[err.code ?? ''] ?? 'MALFORMED_REQUEST');
  const body = JSON.stringify(toEnvelope(mapped));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${mapped.status} ${STATUS_CODES[mapped.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Installs the error handler and the 404/405 handler on `app`. */
export function registerErrorHandling(app: FastifyInstance, allowed: AllowedMethods): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    // Errors raised while handling a request no route takes (e.g. a QUERY without a
    // Content-Type) are about the method or path, not about a route's input.
    if (request.is404) return sendUnrouted(reply, allowed);
    // The route's own limit: a route sets it as its `bodyLimit` (json-body.ts does so for a plugin).
    const mapped = toSkillflowError(err, request.routeOptions.bodyLimit);
    // `PUT /v1/workflows/validate` reaches `PUT /v1/workflows/:id` with an id no route takes:
    // the resource is the literal path, which answers other methods.
    const onParams = (err as { validationContext?: string }).validationContext === 'params';
    if (onParams && allowed.for(request.url, true).length > 0) return sendUnrouted(reply, allowed, true);
    if (mapped.code === 'INTERNAL') {
      // Name and first line only: messages of unknown errors may quote user data.
      const e = err as Error;
      request.log.error(
        { errName: e?.name, errCode: (err as FastifyError)?.code, route: request.routeOptions.url },
        'unhandled error',
      );
    }
    return sendError(reply, mapped);
  });
  app.setNotFoundHandler((_request, reply) => sendUnrouted(reply, allowed));
}
