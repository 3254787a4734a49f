/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field. */
/**
 * Traces end to end: with OTEL_EXPORTER_OTLP_ENDPOINT set to an OTLP/HTTP receiver on loopback,
 * a run started by an API request with a caller's `traceparent` is one trace from the request's
 * SERVER span through StartWorkflow, RunWorkflow, StartActivity and RunActivity to the CLIENT
 * span of each upstream request (the encyclopedia simulator). No exported span holds the run's
 * input (a unique marker, searched for and asked for by title) or the caller's API key.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS } from '../../activities/apps/index.js';
import { loadConfig, withValues } from '../../lib/config.js';
import { observeUpstreams, upstreamOrigins } from '../../lib/metrics/upstream.js';
import { startTracing, type ActiveTracing } from '../../lib/tracing/index.js';
import {
  startEncyclopediaSimulator,
  type EncyclopediaSimulator,
} from '../../simulators/encyclopedia/server.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';

/** OTLP's span kinds and status codes. */
const SERVER = 2;
const CLIENT = 3;
const UNSET = 0;
const OK = 1;
const ERROR = 2;

describe('tracing over OTLP/HTTP', () => {
  let receiver: OtlpReceiver;
  let sim: EncyclopediaSimulator;
  let tracing: ActiveTracing | undefined;
  let h: EngineHarness;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    sim = await startEncyclopediaSimulator();
    const values = {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' as const,
      OTEL_SERVICE_NAME: 'skillflow-test',
      TRACE_STORE_QUERY_MIN_MS: 0,
      ENCYCLOPEDIA_URL: sim.urlTemplate,
    };
    const config = withValues(loadConfig({ LOG_LEVEL: 'silent' }), values);
    observeUpstreams(upstreamOrigins(config));
    tracing = await startTracing(config.tracing);
    h = await startEngine({ apps: APPS, config: { ...values, DECISION_URL: undefined } });
  });
  afterAll(async () => {
    await h?.close();
    await tracing?.shutdown();
    await sim?.close();
    await receiver?.close();
  });

  /** Flushes until the trace holds `until`, then returns its spans. */
  async function traceOf(
    traceId: string,
    until: (spans: ReceivedSpan[]) => boolean,
  ): Promise<ReceivedSpan[]> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      await tracing!.flush();
      const spans = receiver.spans().filter((s) => s.traceId === traceId);
      if (until(spans) || Date.now() > deadline) return spans;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('one trace from the caller through the run to the upstream, and nothing of the input or key', async () => {
    expect(tracing).toBeDefined();
    const marker = `zq${randomBytes(6).toString('hex')}`;
    const source = `title: Traced lookup
start_when:
  manual:
    inputs:
      topic: { type: string, required: true }
steps:
  - id: search
    use_app_skill: encyclopedia.search_articles
    input: { requests: [{ language: en, query: "{{inputs.topic}}", limit: 2 }] }
  - id: summary
    use_app_skill: encyclopedia.get_summary
    input: { requests: [{ language: en, title: "{{inputs.topic}}" }] }
`;
    const created = await h.request('POST', '/v1/workflows', source, 'application/yaml');
    expect(created.status).toBe(201);

    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const res = await h.api.app.inject({
      method: 'POST',
      url: `/v1/workflows/${created.json.id}/runs`,
      headers: {
        authorization: `Bearer ${h.token}`,
        'content-type': 'application/json',
        traceparent: `00-${traceId}-${callerSpanId}-01`,
      },
      payload: JSON.stringify({ inputs: { topic: marker } }),
    });
    expect(res.statusCode).toBe(202);
    const taskId = res.json().task_id as string;
    const task = await h.waitForTask(taskId, (t) => t.status === 'completed' || t.status === 'failed');
    // The marker names no article: the summary step fails on the upstream's 404.
    expect(task.steps.map((s: any) => `${s.id}:${s.status}`)).toEqual(['search:completed', 'summary:failed']);
    // The task view names the trace the run was started in.
    expect(task.trace_id).toBe(traceId);
    // Both steps reached the upstream.
    expect(sim.requests().some((r) => JSON.stringify(r).includes(marker))).toBe(true);

    const spans = await traceOf(traceId, (all) => all.some((s) => s.name.startsWith('RunWorkflow:')));
    const named = (name: string) => spans.filter((s) => s.name === name);
    const one = (name: string) => {
      const found = named(name);
      expect(
        found.map((s) => s.name),
        name,
      ).toEqual([name]);
      return found[0]!;
    };

    const request = one(`POST /v1/workflows/:id/runs`);
    expect(request).toMatchObject({
      kind: SERVER,
      parentSpanId: callerSpanId,
      attributes: {
        'http.request.method': 'POST',
        'http.route': '/v1/workflows/:id/runs',
        'http.response.status_code': 202,
        'url.scheme': 'http',
      },
      resource: { 'service.name': 'skillflow-test' },
    });
    const start = one('StartWorkflow:runDefinition');
    expect(start.parentSpanId).toBe(request.spanId);
    const run = one('RunWorkflow:runDefinition');
    expect(run.parentSpanId).toBe(start.spanId);
    expect(run.attributes).toMatchObject({ workflowId: taskId, workflowType: 'runDefinition' });

    for (const [step, activity, status] of [
      ['search', 'encyclopedia.search_articles', 200],
      ['summary', 'encyclopedia.get_summary', 404],
    ] as const) {
      const scheduled = one(`StartActivity:${activity}`);
      expect(scheduled.parentSpanId).toBe(run.spanId);
      const attempt = one(`RunActivity:${activity}`);
      expect(attempt.parentSpanId).toBe(scheduled.spanId);
      expect(attempt.attributes).toMatchObject({
        'skillflow.step.id': step,
        'skillflow.activity.attempt': 1,
        temporalWorkflowId: taskId,
      });
      const upstream = spans.filter(
        (s) => s.parentSpanId === attempt.spanId && s.attributes['skillflow.upstream.provider'] !== undefined,
      );
      expect(upstream).toHaveLength(1);
      expect(upstream[0]).toMatchObject({
        name: 'GET encyclopedia',
        kind: CLIENT,
        attributes: {
          'http.request.method': 'GET',
          'http.response.status_code': status,
          'url.scheme': 'http',
          'server.address': '127.0.0.1',
          'server.port': Number(new URL(sim.url).port),
          'skillflow.upstream.provider': 'encyclopedia',
        },
      });
      expect(upstream[0]!.attributes['http.response.body.size']).toBeGreaterThan(0);
      // A failed attempt keeps the exception's type only: no message, no stack.
      const failed = status === 404;
      expect([attempt.status, attempt.events]).toEqual(
        failed
          ? [{ code: ERROR }, [{ name: 'exception', attributes: { 'exception.type': 'ApplicationFailure' } }]]
          : [{ code: OK }, []],
      );
      expect(upstream[0]!.status).toEqual({ code: failed ? ERROR : UNSET });
    }
    expect(run.status).toEqual({ code: ERROR });
    expect(run.events.map((e) => Object.keys(e.attributes))).toEqual([['exception.type']]);
    // Store queries of the request: statement names only.
    const queries = spans.filter((s) => s.attributes['db.system'] === 'pglite');
    expect(queries.length).toBeGreaterThan(0);
    for (const q of queries) expect(q.name).toMatch(/^(SELECT|INSERT|UPDATE|DELETE|RAW|OTHER)( [a-z_]+)?$/);

    // Privacy: every exported request, whole (names, attributes, events, resource).
    const exported = receiver.requests.map((r) => r.body.toString('utf8')).join('\n');
    expect(exported).toContain(taskId);
    expect(exported).not.toContain(marker);
    expect(exported).not.toContain(h.token);
    expect(exported).not.toContain(h.token.slice(-12));
  });
});
