/**
 * Tracing starts only with an endpoint: without one nothing is registered and every span is
 * the API's no-op; with one, spans are posted to `<endpoint>/v1/traces` as protobuf by default.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { startOtlpReceiver } from '../../test/helpers/otlp-receiver.js';
import { activeTracing, startTracing, tracesUrl } from './index.js';

const tracingConfig = (env: Record<string, string>) => loadConfig(env).tracing;

describe('startTracing', () => {
  afterEach(async () => {
    await activeTracing()?.shutdown();
  });

  it('starts nothing without an endpoint: no provider, no propagator, non-recording spans', async () => {
    expect(await startTracing(tracingConfig({}))).toBeUndefined();
    expect(activeTracing()).toBeUndefined();
    const span = trace.getTracer('x').startSpan('y');
    expect(span.isRecording()).toBe(false);
    span.end();
    const carrier: Record<string, string> = {};
    propagation.inject(trace.setSpan(context.active(), span), carrier);
    expect(carrier).toEqual({});
  });

  it('starts nothing when the SDK is disabled, endpoint or not', async () => {
    expect(
      await startTracing(
        tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_SDK_DISABLED: 'true' }),
      ),
    ).toBeUndefined();
    expect(activeTracing()).toBeUndefined();
  });

  it('posts protobuf to <endpoint>/v1/traces by default, and stops on shutdown', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const tracing = await startTracing(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.url}/` }));
      expect(activeTracing()).toBe(tracing);
      tracing!.tracer.startSpan('probe').end();
      await tracing!.flush();
      expect(receiver.requests.map((r) => [r.path, r.contentType])).toEqual([
        ['/v1/traces', 'application/x-protobuf'],
      ]);
      expect(receiver.requests[0]!.body.includes(Buffer.from('probe'))).toBe(true);
      await tracing!.shutdown();
      expect(activeTracing()).toBeUndefined();
      expect(trace.getTracer('x').startSpan('after').isRecording()).toBe(false);
    } finally {
      await receiver.close();
    }
  });
});

describe('tracesUrl', () => {
  it('appends /v1/traces to the base endpoint; a traces endpoint is used as given', () => {
    expect(tracesUrl(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }))).toBe(
      'http://c:4318/v1/traces',
    );
    expect(
      tracesUrl(
        tracingConfig({
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t:4318/custom',
        }),
      ),
    ).toBe('http://t:4318/custom');
    expect(tracesUrl(tracingConfig({}))).toBeUndefined();
  });

  it('refuses gRPC at boot, naming the variable', () => {
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      'OTEL_EXPORTER_OTLP_PROTOCOL: must be http/protobuf or http/json (gRPC is not supported)',
    );
  });
});
