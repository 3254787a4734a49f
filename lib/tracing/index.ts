/**
 * OpenTelemetry traces, exported over OTLP/HTTP only when an endpoint is configured
 * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT). Without one nothing is
 * started: no SDK module is loaded, no provider registered, no interceptor installed, and the
 * OpenTelemetry API's global no-op answers every call (docs/tracing.md).
 *
 * Started once per process by its entry point ({@link startTracing}); the parts that add spans
 * (the API's request hooks, the Temporal client and worker, the store, the upstream HTTP
 * observer) ask {@link activeTracing} whether tracing is on, as they would ask the global
 * provider. Every exported span passes through the redaction of ./redact.ts.
 */
import type { Tracer } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { TracingConfig } from '../config.js';

/** The tracer name of every span skillflow itself starts. */
export const TRACER_NAME = 'skillflow';

/** Tracing while it is on: what the instrumented parts need. */
export interface ActiveTracing {
  tracer: Tracer;
  /** Batches redacted spans to the exporter (the worker's workflow span sink feeds it too). */
  processor: SpanProcessor;
  resource: Resource;
  /** Store queries at least this slow (ms) get a span. */
  storeQueryMinMs: number;
  /** Sends every finished span now. */
  flush(): Promise<void>;
  /** Flushes, then stops exporting and unregisters the global provider. */
  shutdown(): Promise<void>;
}

let active: ActiveTracing | undefined;
const stoppers: (() => void)[] = [];

/** Tracing when this process started it, otherwise undefined. */
export function activeTracing(): ActiveTracing | undefined {
  return active;
}

/** Runs `stop` when tracing shuts down (the upstream observer's unsubscribe). */
export function onTracingShutdown(stop: () => void): void {
  stoppers.push(stop);
}

/** The URL spans are posted to: the traces endpoint as given, or the base URL + `/v1/traces`. */
export function tracesUrl(config: TracingConfig): string | undefined {
  if (config.OTEL_SDK_DISABLED) return undefined;
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

async function otlpExporter(config: TracingConfig, url: string): Promise<SpanExporter> {
  if (config.OTEL_EXPORTER_OTLP_PROTOCOL === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter({ url });
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter({ url });
}

/**
 * Starts tracing when an endpoint is configured and returns it; otherwise returns undefined
 * having loaded nothing. A second call while tracing is on returns the running one.
 */
export async function startTracing(config: TracingConfig): Promise<ActiveTracing | undefined> {
  if (active) return active;
  const url = tracesUrl(config);
  if (!url) return undefined;
  const [api, core, { AsyncLocalStorageContextManager }, { Resource }, sdk, { redactingExporter }] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/core'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/sdk-trace-base'),
      import('./redact.js'),
    ]);
  const resource = new Resource({ 'service.name': config.OTEL_SERVICE_NAME });
  const processor = new sdk.BatchSpanProcessor(redactingExporter(await otlpExporter(config, url)));
  const provider = new sdk.BasicTracerProvider({ resource, spanProcessors: [processor] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  provider.register({ contextManager, propagator: new core.W3CTraceContextPropagator() });
  const tracing: ActiveTracing = {
    tracer: provider.getTracer(TRACER_NAME),
    processor,
    resource,
    storeQueryMinMs: config.TRACE_STORE_QUERY_MIN_MS,
    flush: () => provider.forceFlush(),
    async shutdown() {
      if (active !== tracing) return;
      active = undefined;
      for (const stop of stoppers.splice(0)) stop();
      await provider.shutdown();
      api.trace.disable();
      api.propagation.disable();
      api.context.disable();
    },
  };
  active = tracing;
  const { observeUpstreamRequests } = await import('./http-client.js');
  observeUpstreamRequests(tracing.tracer);
  return tracing;
}
