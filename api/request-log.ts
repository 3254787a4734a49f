/**
 * Request logging without user data: one line per completed request with the route pattern
 * (never the URL: it carries query strings, ids and credentials such as the token of a
 * download link, `/v1/assets/download/:token`), method, status and timing, and for an
 * authenticated request the key and owner ids (never a token). Headers, bodies and
 * query text are never logged; neither is a request before it completes (no `incomingRequest`
 * line, no line for an unrouted path).
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

export class RoutePatternLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
    // Who made it, so every write can be traced to a key: ids only, never a token.
    const principal = req.principal;
    req.log.info(
      {
        method: req.method,
        route: req.routeOptions.url ?? '(unmatched)',
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
        ...(principal ? { keyId: principal.keyId, ownerId: principal.ownerId } : {}),
        ...(error ? { errName: error.name } : {}),
      },
      'request',
    );
  }

  override routeNotFound(): void {}
}
