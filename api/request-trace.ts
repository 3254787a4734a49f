/**
 * One SERVER span per API request while tracing is on (lib/tracing/): named by the method and
 * route pattern (`POST /v1/workflows/:id/runs`), never the URL (it carries query strings, ids
 * and webhook tokens), with the method, route, scheme and status code only. A caller's W3C
 * `traceparent` (and `tracestate`) makes the span its child; the span is the active context of
 * the whole request, so a run started by the request continues its trace (lib/tracing/temporal.ts).
 */
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
} from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ActiveTracing } from '../lib/tracing/index.js';

const spans = new WeakMap<FastifyRequest, Span>();

function routeOf(req: FastifyRequest): string | undefined {
  return req.routeOptions.url;
}

export function traceRequests(app: FastifyInstance, tracing: ActiveTracing): void {
  app.addHook('onRequest', (req, reply, done) => {
    const carrier = { traceparent: req.headers.traceparent, tracestate: req.headers.tracestate };
    const parent = propagation.extract(ROOT_CONTEXT, carrier);
    const route = routeOf(req);
    const span = tracing.tracer.startSpan(
      route ? `${req.method} ${route}` : req.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': req.method,
          'url.scheme': req.protocol,
          ...(route ? { 'http.route': route } : {}),
        },
      },
      parent,
    );
    spans.set(req, span);
    const active = trace.setSpan(parent, span);
    // The body arrives in events of the raw request: its listeners run in the request's context.
    context.bind(active, req.raw);
    context.bind(active, reply.raw);
    context.with(active, done);
  });
  const end = (req: FastifyRequest, status: number | undefined, aborted: boolean) => {
    const span = spans.get(req);
    if (!span) return;
    spans.delete(req);
    if (status !== undefined) span.setAttribute('http.response.status_code', status);
    if (aborted) span.setAttribute('error.type', 'aborted');
    else if (status !== undefined && status >= 500) {
      span.setAttribute('error.type', String(status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  };
  app.addHook('onResponse', (req, reply, done) => {
    end(req, reply.statusCode, false);
    done();
  });
  app.addHook('onRequestAbort', (req, done) => {
    end(req, undefined, true);
    done();
  });
}
