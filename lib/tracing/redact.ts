/**
 * The last word on what leaves the process in a span: every exported span passes through
 * {@link redactSpan}, which keeps only allow-listed attribute keys (ids, routes, methods, status
 * codes, hosts of configured upstreams, step ids, sizes, durations) with short values, exception
 * events reduced to their type, and no status message. Whatever an instrumentation adds beyond
 * that (the Temporal interceptors copy the whole workflow info, memo included, onto workflow
 * spans and record exception messages and stacks) never reaches the exporter: queries, titles,
 * messages, results, prompts and keys are user text and have no allow-listed key.
 */
import type { Attributes, AttributeValue } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/** The attribute keys a span may carry, and nothing else. */
export const ALLOWED_ATTRIBUTES: ReadonlySet<string> = new Set([
  // HTTP server and client (semantic conventions); never a path or query.
  'http.request.method',
  'http.route',
  'http.response.status_code',
  'http.response.body.size',
  'url.scheme',
  'server.address',
  'server.port',
  'error.type',
  // Store queries: the statement's operation and table, never its text or parameters.
  'db.system',
  'db.operation.name',
  'db.collection.name',
  // Temporal interceptors and the workflow info they copy (ids and names only).
  'temporalWorkflowId',
  'temporalActivityId',
  'temporalUpdateId',
  'run_id',
  'workflowId',
  'runId',
  'workflowType',
  'taskQueue',
  'namespace',
  'attempt',
  // Ours.
  'skillflow.step.id',
  'skillflow.activity.attempt',
  'skillflow.upstream.provider',
  'skillflow.upstream.via',
]);

const MAX_STRING = 256;

function keepValue(value: AttributeValue | undefined): value is string | number | boolean {
  if (typeof value === 'number' || typeof value === 'boolean') return true;
  return typeof value === 'string' && value.length <= MAX_STRING;
}

/** The allow-listed attributes with plain values (strings at most 256 characters). */
export function redactAttributes(attributes: Attributes): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (ALLOWED_ATTRIBUTES.has(key) && keepValue(value)) out[key] = value;
  }
  return out;
}

/** An exception's type when it is a plain identifier (a class name or error code). */
function exceptionType(attributes: Attributes | undefined): Attributes {
  const type = attributes?.['exception.type'];
  return typeof type === 'string' && /^[A-Za-z0-9_.:-]{1,100}$/.test(type) ? { 'exception.type': type } : {};
}

/** A copy of `span` with only what may leave the process. */
export function redactSpan(span: ReadableSpan): ReadableSpan {
  const context = span.spanContext();
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => context,
    parentSpanId: span.parentSpanId,
    startTime: span.startTime,
    endTime: span.endTime,
    // A status message is an error message: the code alone.
    status: { code: span.status.code },
    attributes: redactAttributes(span.attributes),
    links: span.links.map((link) => ({ context: link.context })),
    events: span.events
      .filter((e) => e.name === 'exception')
      .map((e) => ({ name: e.name, time: e.time, attributes: exceptionType(e.attributes) })),
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationLibrary: span.instrumentationLibrary,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

/** Wraps an exporter so that every span it sends is redacted first. */
export function redactingExporter(inner: SpanExporter): SpanExporter {
  return {
    export: (spans, done) => inner.export(spans.map(redactSpan), done),
    shutdown: () => inner.shutdown(),
    ...(inner.forceFlush ? { forceFlush: () => inner.forceFlush!() } : {}),
  };
}
