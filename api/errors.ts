/**
 * The one API error handler: maps any failure to `{ error: { code, message, details } }`.
 * Covers SkillflowError, zod request validation, fastify's own errors (body parse, size, media
 * type), and Temporal's WorkflowFailedError → ActivityFailure → ApplicationFailure chain.
 * Unknown errors become INTERNAL; their text is logged (never user data) but not sent.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isErrorCode } from '../lib/errors/catalogue.js';
import { SkillflowError, toEnvelope, type FieldIssue } from '../lib/errors/skillflow-error.js';

/** `/requests/0/tlds` → `requests[0].tlds` */
export function pointerToPath(pointer: string): string {
  return pointer
    .split('/')
    .filter(Boolean)
    .map((seg) => seg.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '');
}

interface FailureLike {
  type?: unknown;
  message?: unknown;
  details?: unknown;
  cause?: unknown;
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

export function toSkillflowError(err: unknown): SkillflowError {
  if (err instanceof SkillflowError) return err;
  if (hasZodFastifySchemaValidationErrors(err)) {
    const location = (err as { validationContext?: string }).validationContext ?? 'body';
    const issues: FieldIssue[] = err.validation.map((v: { instancePath: string; message?: string }) => ({
      path: pointerToPath(v.instancePath),
      message: v.message ?? 'invalid',
      location,
    }));
    return new SkillflowError(
      'INVALID_PARAMETER',
      `Invalid ${location} at ${issues[0]?.path || '(root)'}: ${issues[0]?.message ?? 'invalid'}`,
      { issues },
    );
  }
  const fromTemporal = fromTemporalFailure(err);
  if (fromTemporal) return fromTemporal;
  const fe = err as Partial<FastifyError>;
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new SkillflowError('UNSUPPORTED_MEDIA_TYPE');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new SkillflowError('PAYLOAD_TOO_LARGE');
  }
  if (fe.statusCode === 400 && (fe.code?.startsWith('FST_ERR_CTP') || err instanceof SyntaxError)) {
    return new SkillflowError('INVALID_BODY');
  }
  if (fe.statusCode === 405) return new SkillflowError('METHOD_NOT_ALLOWED');
  return new SkillflowError('INTERNAL');
}

/** Retry-After for a 429 that knows no time of its own (spec 8: every 429 carries one). */
export const DEFAULT_RETRY_AFTER_SECONDS = 60;

export function sendError(reply: FastifyReply, err: SkillflowError): FastifyReply {
  if (err.retryAfterMs !== undefined) {
    reply.header('retry-after', Math.max(1, Math.ceil(err.retryAfterMs / 1000)));
  } else if (err.status === 429) {
    reply.header('retry-after', DEFAULT_RETRY_AFTER_SECONDS);
  }
  return reply.status(err.status).type('application/json').send(toEnvelope(err));
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = toSkillflowError(err);
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
  app.setNotFoundHandler((_request, reply) => sendError(reply, new SkillflowError('ROUTE_NOT_FOUND')));
}
