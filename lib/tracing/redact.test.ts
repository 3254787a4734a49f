import { SpanKind, SpanStatusCode, type HrTime } from '@opentelemetry/api';
import { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { redactSpan } from './redact.js';

const t: HrTime = [1, 0];

describe('redactSpan', () => {
  it('keeps allow-listed ids and codes; drops memo, messages, stacks and unknown keys', () => {
    const context = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 };
    const span = {
      name: 'RunWorkflow:runDefinition',
      kind: SpanKind.INTERNAL,
      spanContext: () => context,
      parentSpanId: 'c'.repeat(16),
      startTime: t,
      endTime: t,
      status: { code: SpanStatusCode.ERROR, message: 'No article titled secret-title' },
      attributes: {
        workflowId: 'task_1',
        'skillflow.step.id': 'search',
        'http.response.status_code': 404,
        memo: 'secret-title',
        'url.full': 'http://x/summary/secret-title',
        'skillflow.step.id.long': 'x',
        workflowType: 'w'.repeat(257),
      },
      links: [{ context, attributes: { note: 'secret-title' } }],
      events: [
        {
          name: 'exception',
          time: t,
          attributes: {
            'exception.type': 'ApplicationFailure',
            'exception.message': 'secret-title',
            'exception.stacktrace': 'at secret-title',
          },
        },
        { name: 'log', time: t, attributes: { text: 'secret-title' } },
      ],
      duration: t,
      ended: true,
      resource: new Resource({ 'service.name': 'skillflow' }),
      instrumentationLibrary: { name: 'skillflow' },
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    } satisfies ReadableSpan;
    const out = redactSpan(span);
    expect(out.spanContext()).toBe(context);
    expect(out.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(out.attributes).toEqual({
      workflowId: 'task_1',
      'skillflow.step.id': 'search',
      'http.response.status_code': 404,
    });
    expect(out.links).toEqual([{ context }]);
    expect(out.events).toEqual([
      { name: 'exception', time: t, attributes: { 'exception.type': 'ApplicationFailure' } },
    ]);
    expect(JSON.stringify({ ...out, resource: undefined })).not.toContain('secret-title');
  });
});
