/**
 * Trace propagation through Temporal with `@temporalio/interceptors-opentelemetry`, installed
 * only while tracing is on: the client interceptor starts a `StartWorkflow` span in the caller's
 * trace (the API request) and passes its context in the workflow's headers; the workflow
 * interceptors (in the workflow bundle, worker/bundle.ts) run the workflow in a `RunWorkflow`
 * span and pass it on to every activity they schedule (`StartActivity`); the activity
 * interceptor runs each attempt in a `RunActivity` span, which our own interceptor labels with
 * the attempt number and the plan step id. Workflow spans leave the sandbox through the
 * `exporter` sink into the same redacting span processor (lib/tracing/redact.ts).
 */
import { createRequire } from 'node:module';
import { isSpanContextValid, trace, TraceFlags } from '@opentelemetry/api';
import type { ClientInterceptors } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client/index.js';
import type { OpenTelemetryWorkflowExporter } from '@temporalio/interceptors-opentelemetry/lib/workflow/definitions.js';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/worker/index.js';
import type {
  ActivityExecuteInput,
  ActivityInboundCallsInterceptor,
  ActivityInterceptorsFactory,
  InjectedSinks,
  Next,
} from '@temporalio/worker';
import type { Context as ActivityContext } from '@temporalio/activity';
import { activeTracing } from './index.js';

const require = createRequire(import.meta.url);

/** The interceptor module the workflow bundle includes while tracing is on. */
export const WORKFLOW_TRACING_MODULE =
  require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

/** The Temporal client's interceptors: tracing ones while tracing is on, none otherwise. */
export function tracingClientInterceptors(): ClientInterceptors | undefined {
  const tracing = activeTracing();
  if (!tracing) return undefined;
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor({ tracer: tracing.tracer })] };
}

/** A plan step id: an author's label, kept only when it is a plain identifier. */
function stepIdOf(args: readonly unknown[]): string | undefined {
  const stepId = (args[0] as { stepId?: unknown } | null | undefined)?.stepId;
  return typeof stepId === 'string' && /^[A-Za-z0-9_.:/-]{1,128}$/.test(stepId) ? stepId : undefined;
}

/** Labels the attempt's `RunActivity` span with the attempt number and the step id. */
class StepAttributes implements ActivityInboundCallsInterceptor {
  constructor(private readonly ctx: ActivityContext) {}

  execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>) {
    const span = trace.getActiveSpan();
    if (span) {
      span.setAttribute('skillflow.activity.attempt', this.ctx.info.attempt);
      const stepId = stepIdOf(input.args);
      if (stepId) span.setAttribute('skillflow.step.id', stepId);
    }
    return next(input);
  }
}

/** What a worker adds while tracing is on: activity interceptors and the workflow span sink. */
export interface WorkerTracing {
  activity: ActivityInterceptorsFactory[];
  sinks: InjectedSinks<{ exporter: OpenTelemetryWorkflowExporter }>;
}

export function workerTracing(): WorkerTracing | undefined {
  const tracing = activeTracing();
  if (!tracing) return undefined;
  return {
    activity: [
      (ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer: tracing.tracer }) }),
      (ctx) => ({ inbound: new StepAttributes(ctx) }),
    ],
    sinks: { exporter: makeWorkflowExporter(tracing.processor, tracing.resource) },
  };
}

/** The memo key of the trace a task was started in (the memo is encrypted like every payload). */
export const TRACE_MEMO_KEY = 'trace_id';

/**
 * The memo entry naming the caller's trace (the API request's) for a workflow it starts: empty
 * without tracing or an unsampled trace. The task view answers it as `trace_id`.
 */
export function traceMemo(): Record<string, string> {
  const ctx = trace.getActiveSpan()?.spanContext();
  return ctx && isSpanContextValid(ctx) && (ctx.traceFlags & TraceFlags.SAMPLED) !== 0
    ? { [TRACE_MEMO_KEY]: ctx.traceId }
    : {};
}

/** The trace id a task's memo names, if any. */
export function traceIdOfMemo(memo: Record<string, unknown> | undefined): string | undefined {
  const id = memo?.[TRACE_MEMO_KEY];
  return typeof id === 'string' && /^[0-9a-f]{32}$/.test(id) ? id : undefined;
}
