/**
 * One CLIENT span per outbound HTTP request. Every provider client sends with undici, so the
 * one place that sees every request is undici's diagnostics channels (as for the upstream
 * metrics, lib/metrics/upstream.ts): a request's span starts when undici creates it, as a child
 * of the caller's active span (the activity attempt), and ends when its body is complete or it
 * fails. It carries the method, the status code, the response bytes, the scheme and, for a
 * configured upstream only, its provider, host and port; a request to any other origin (a
 * chat webhook, whose URL is the owner's) is named `other` without its host. Never a path (an
 * encyclopedia path holds the searched title), a query string, a header or a body. A request
 * sent through the residential proxy says so (`skillflow.upstream.via`, {@link withUpstreamVia}),
 * and the proxy tunnel's own CONNECT is a span of its own.
 */
import diagnostics from 'node:diagnostics_channel';
import {
  context,
  createContextKey,
  SpanKind,
  SpanStatusCode,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { upstreamProvider } from '../metrics/upstream.js';
import { onTracingShutdown } from './index.js';

const VIA = createContextKey('skillflow.upstream.via');

/**
 * Runs `fn` with the route its upstream requests take (`direct` or `proxy`) on their spans.
 * Without tracing it only calls `fn`.
 */
export function withUpstreamVia<T>(via: 'direct' | 'proxy', fn: () => T): T {
  return context.with(context.active().setValue(VIA, via), fn);
}

interface UndiciRequest {
  origin?: string | URL;
  method?: string;
}

interface Open {
  span: Span;
  bytes: number;
}

const open = new WeakMap<object, Open>();

function finish(request: object, error?: string): void {
  const o = open.get(request);
  if (!o) return;
  open.delete(request);
  o.span.setAttribute('http.response.body.size', o.bytes);
  if (error) {
    o.span.setAttribute('error.type', error);
    o.span.setStatus({ code: SpanStatusCode.ERROR });
  }
  o.span.end();
}

/** An undici error's code when it is a plain identifier, else its class name. */
function errorType(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Z0-9_]{2,64}$/.test(code)) return code;
  return err instanceof Error && /^[A-Za-z]{1,64}$/.test(err.name) ? err.name : 'Error';
}

/** Subscribes to undici's channels until tracing shuts down. */
export function observeUpstreamRequests(tracer: Tracer): void {
  const onCreate = (msg: unknown) => {
    const { request } = msg as { request: UndiciRequest };
    if (!request.origin) return;
    let origin: URL;
    try {
      origin = new URL(String(request.origin));
    } catch {
      return;
    }
    const method = (request.method ?? 'GET').toUpperCase();
    const provider = upstreamProvider(origin.origin);
    const via = context.active().getValue(VIA);
    const span = tracer.startSpan(`${method} ${provider ?? 'other'}`, {
      kind: SpanKind.CLIENT,
      attributes: {
        'http.request.method': method,
        'url.scheme': origin.protocol.replace(/:$/, ''),
        'skillflow.upstream.provider': provider ?? 'other',
        ...(provider
          ? {
              'server.address': origin.hostname,
              'server.port': Number(origin.port || (origin.protocol === 'https:' ? 443 : 80)),
            }
          : {}),
        ...(typeof via === 'string' ? { 'skillflow.upstream.via': via } : {}),
      },
    });
    open.set(request, { span, bytes: 0 });
  };
  const onHeaders = (msg: unknown) => {
    const { request, response } = msg as { request: object; response: { statusCode: number } };
    const o = open.get(request);
    if (!o) return;
    o.span.setAttribute('http.response.status_code', response.statusCode);
    if (response.statusCode >= 400) {
      o.span.setAttribute('error.type', String(response.statusCode));
      o.span.setStatus({ code: SpanStatusCode.ERROR });
    }
  };
  const onChunk = (msg: unknown) => {
    const { request, chunk } = msg as { request: object; chunk: Uint8Array };
    const o = open.get(request);
    if (o) o.bytes += chunk.byteLength;
  };
  const onTrailers = (msg: unknown) => finish((msg as { request: object }).request);
  const onError = (msg: unknown) => {
    const { request, error } = msg as { request: object; error: unknown };
    finish(request, errorType(error));
  };
  const subscriptions: [string, (msg: unknown) => void][] = [
    ['undici:request:create', onCreate],
    ['undici:request:headers', onHeaders],
    ['undici:request:bodyChunkReceived', onChunk],
    ['undici:request:trailers', onTrailers],
    ['undici:request:error', onError],
  ];
  for (const [name, fn] of subscriptions) diagnostics.subscribe(name, fn);
  onTracingShutdown(() => {
    for (const [name, fn] of subscriptions) diagnostics.unsubscribe(name, fn);
  });
}
