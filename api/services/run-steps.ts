/**
 * GET /v1/runs/{run_id}/steps/{step_id}: what one step of a workflow run was called with and
 * what its call answered, read from the run's Temporal history and decoded with the payload
 * codec (the history holds them encrypted). Only steps that call an activity (a skill, a chat
 * message, a decision) have a call; the others answer `call: null`. A loop's inner step is named
 * per element: `loop[2].inner`.
 *
 * Bounded: histories are read page by page and at most {@link MAX_SCANNED_EVENTS} events are
 * looked at in all (a large loop's batch child workflows included); only the inputs of
 * activities of the step's own type are decoded. A chat step's
 * rendered title and message are never returned: the message is sealed to the owner's chat keys
 * and is read with those (the call shows its chat id).
 */
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow/index.js';
import proto from '@temporalio/proto';
import { errors } from '../../lib/errors/errors.js';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { Principal } from '../../lib/keys.js';
import type { TemporalClient } from '../../lib/temporal/client.js';
import { TaskKind } from '../../lib/temporal/search-attributes.js';
import { callsActivity, type PlanStep } from '../../definitions/runtime/index.js';
import type { LoopBatchInput } from '../../workflows/loop-batch.js';
import type { RunDefinitionInput } from '../../workflows/run-definition.js';
import type { RunStepView } from '../schemas.js';
import type { TasksService } from './tasks.js';

type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;
const PendingState = proto.temporal.api.enums.v1.PendingActivityState;
const WorkflowStatus = proto.temporal.api.enums.v1.WorkflowExecutionStatus;

/** Events one look may read in all (Temporal refuses a single history past 51,200). */
export const MAX_SCANNED_EVENTS = 60_000;
const PAGE_SIZE = 1_000;

/** A step id as the run names it: a plan step id, inside loop elements as `loop[2].inner`. */
export const RUN_STEP_ID = /^(?:[a-z][a-z0-9_]{0,63}\[(?:0|[1-9]\d{0,4})\]\.){0,4}[a-z][a-z0-9_]{0,63}$/;

/** The activity type each activity-calling step kind schedules (a skill's is its reference). */
function activityTypeOf(step: PlanStep): string | undefined {
  if (step.kind === 'skill') return step.activity;
  if (step.kind === 'chat') return 'deliverChatMessage';
  if (step.kind === 'decide') return 'decideStep';
  return undefined;
}

type Call = NonNullable<RunStepView['call']>;
type Description = proto.temporal.api.workflowservice.v1.IDescribeWorkflowExecutionResponse;
type Execution = { workflowId: string; runId: string };

/** The events a look at one step may still read, across the run's and its batches' histories. */
interface Scan {
  left: number;
}

export class RunStepsService {
  constructor(
    private readonly temporal: TemporalClient,
    private readonly tasks: TasksService,
    /** Events one look may read (a test sets fewer). */
    private readonly maxEvents: number = MAX_SCANNED_EVENTS,
  ) {}

  /** The step `stepId` of the caller's run `runId` (404 for another owner's run or a skill call). */
  async get(principal: Principal, runId: string, stepId: string): Promise<RunStepView> {
    const desc = await this.tasks.describeOwned(principal, runId);
    if (desc.typedSearchAttributes.get(TaskKind) === 'skill_call')
      throw errors.notFound('No task with this id.');
    const scan: Scan = { left: this.maxEvents };
    const history = this.events({ workflowId: runId, runId: desc.runId }, scan);
    const input = await this.startInput<RunDefinitionInput>(history);
    if (!input?.plan) throw errors.notFound('No task with this id.');
    const step = planStepOf(input.plan.steps, stepId);
    if (!step) throw errors.notFound('The run has no step with this id.');
    const type = activityTypeOf(step);
    const view = {
      run_id: runId,
      step_id: stepId,
      kind: step.kind,
      skill: step.kind === 'skill' ? step.skill : null,
    };
    if (!callsActivity(step) || type === undefined) {
      await history.return(undefined);
      return { ...view, call: null };
    }
    const call = await this.callIn(history, { type, stepId, kind: step.kind }, scan, async () => desc.raw);
    return { ...view, call };
  }

  private get converter() {
    return this.temporal.client.options.loadedDataConverter;
  }

  /** The first argument the history's first event started the workflow with. */
  private async startInput<T>(history: AsyncGenerator<HistoryEvent>): Promise<T | undefined> {
    const first = await history.next();
    const payloads = first.done
      ? undefined
      : first.value.workflowExecutionStartedEventAttributes?.input?.payloads;
    return payloads ? await decodeFromPayloadsAtIndex<T>(this.converter, 0, payloads) : undefined;
  }

  /**
   * The step's activity in a history (after its first event): scheduled, then started and closed.
   * A large loop runs its elements in batch child workflows: the history holds each batch's
   * input where it starts it, so only the batch that runs the element is opened.
   */
  private async callIn(
    history: AsyncGenerator<HistoryEvent>,
    want: { type: string; stepId: string; kind: PlanStep['kind'] },
    scan: Scan,
    describe: () => Promise<Description>,
  ): Promise<Call | null> {
    let scheduledId: string | undefined;
    let activityId: string | undefined;
    let call: Call | null = null;
    let batchInitiated: string | undefined;
    let batch: Execution | undefined;
    try {
      for await (const event of history) {
        if (scheduledId !== undefined) {
          Object.assign(call!, await this.closing(event, scheduledId));
          if (call!.state !== 'scheduled' && call!.state !== 'started') break;
          continue;
        }
        const initiated = event.startChildWorkflowExecutionInitiatedEventAttributes;
        if (batchInitiated === undefined && initiated?.workflowType?.name === 'runLoopBatch') {
          const payloads = initiated.input?.payloads;
          const input = payloads
            ? await decodeFromPayloadsAtIndex<LoopBatchInput>(this.converter, 0, payloads)
            : undefined;
          if (input && batchHolds(input, want.stepId)) batchInitiated = String(event.eventId);
          continue;
        }
        const child = event.childWorkflowExecutionStartedEventAttributes;
        if (child && batchInitiated !== undefined && String(child.initiatedEventId) === batchInitiated) {
          const started = child.workflowExecution;
          batch = { workflowId: started?.workflowId ?? '', runId: started?.runId ?? '' };
          // An element runs either here or in its batch: the rest of this history cannot hold it.
          break;
        }
        const scheduled = event.activityTaskScheduledEventAttributes;
        if (scheduled?.activityType?.name !== want.type || !scheduled.input?.payloads) continue;
        const args = await decodeFromPayloadsAtIndex<Record<string, unknown>>(
          this.converter,
          0,
          scheduled.input.payloads,
        );
        if (args?.stepId !== want.stepId) continue;
        scheduledId = String(event.eventId);
        activityId = scheduled.activityId ?? undefined;
        call = { state: 'scheduled', attempt: null, input: shownInput(want.kind, args), output: null };
      }
    } finally {
      await history.return(undefined);
    }
    // Out of events before the answer was certain: no answer rather than a wrong one.
    if (scan.left < 0 && (call === null || call.state === 'scheduled') && !batch)
      throw historyTooLong(this.maxEvents);
    // An open call's start is written to the history only when it closes: the workflow's
    // description says whether it runs now and its attempt; a workflow that is no longer
    // running (terminated, timed out) left it open for good.
    if (call?.state === 'scheduled') Object.assign(call, pendingState(await describe(), activityId));
    if (call) return call;
    if (!batch) return null;
    const { workflowId, runId } = batch;
    const inner = this.events(batch, scan);
    await this.startInput(inner);
    return this.callIn(
      inner,
      want,
      scan,
      async () => (await this.temporal.client.workflow.getHandle(workflowId, runId).describe()).raw,
    );
  }

  /** What an event says of the scheduled activity `scheduledId`, if it is about it. */
  private async closing(event: HistoryEvent, scheduledId: string): Promise<Partial<Call> | undefined> {
    const of = (attrs: { scheduledEventId?: Long | number | null } | null | undefined) =>
      attrs && String(attrs.scheduledEventId) === scheduledId;
    if (of(event.activityTaskStartedEventAttributes))
      return { state: 'started', attempt: event.activityTaskStartedEventAttributes!.attempt ?? null };
    const completed = event.activityTaskCompletedEventAttributes;
    if (of(completed)) {
      const payloads = completed!.result?.payloads;
      const output = payloads ? await decodeFromPayloadsAtIndex(this.converter, 0, payloads) : null;
      return { state: 'completed', output: output ?? null };
    }
    if (of(event.activityTaskFailedEventAttributes)) return { state: 'failed' };
    if (of(event.activityTaskTimedOutEventAttributes)) return { state: 'timed_out' };
    if (of(event.activityTaskCanceledEventAttributes)) return { state: 'cancelled' };
    return undefined;
  }

  /**
   * A workflow's history events, page by page. Every fetched event counts against the scan's
   * budget; when the budget is spent before the history ends, `left` goes below zero.
   */
  private async *events(execution: Execution, scan: Scan): AsyncGenerator<HistoryEvent> {
    let token: Uint8Array | undefined;
    do {
      if (scan.left <= 0) {
        scan.left = -1;
        return;
      }
      const page = await this.temporal.client.workflowService.getWorkflowExecutionHistory({
        namespace: this.temporal.namespace,
        execution,
        maximumPageSize: Math.min(PAGE_SIZE, scan.left),
        ...(token && { nextPageToken: token }),
      });
      const events = page.history?.events ?? [];
      scan.left -= events.length;
      yield* events;
      token = page.nextPageToken?.length ? page.nextPageToken : undefined;
    } while (token);
  }
}

/**
 * What a workflow's description says of one open call: running now (a pending activity that
 * started) with its attempt; a workflow no longer running left it open for good (`abandoned`).
 */
function pendingState(desc: Description, activityId: string | undefined): Partial<Call> {
  if (desc.workflowExecutionInfo?.status !== WorkflowStatus.WORKFLOW_EXECUTION_STATUS_RUNNING)
    return { state: 'abandoned' };
  const pending = desc.pendingActivities?.find((a) => a.activityId === activityId);
  if (!pending) return {};
  const running =
    pending.state === PendingState.PENDING_ACTIVITY_STATE_STARTED ||
    pending.state === PendingState.PENDING_ACTIVITY_STATE_CANCEL_REQUESTED;
  return running ? { state: 'started', attempt: pending.attempt ?? null } : {};
}

/** RUN_HISTORY_TOO_LONG: the look at the step read as many events as it may. */
function historyTooLong(maxEvents: number): SkillflowError {
  return new SkillflowError('RUN_HISTORY_TOO_LONG', undefined, { max_events: maxEvents });
}

/** Whether a loop batch runs the element the step id names (`<prefix><loop>[<index>].<step>`). */
function batchHolds(batch: LoopBatchInput, stepId: string): boolean {
  const head = `${batch.prefix}${batch.job.loopId}[`;
  if (!stepId.startsWith(head)) return false;
  const index = Number(/^(\d+)\]\./.exec(stepId.slice(head.length))?.[1] ?? NaN);
  return index >= batch.job.offset && index < batch.job.offset + batch.job.items.length;
}

type Long = { toString(): string };

/** The plan step a run's step id names (`loop[2].inner` is the loop's inner step `inner`). */
export function planStepOf(steps: readonly PlanStep[], stepId: string): PlanStep | undefined {
  const parts = stepId.split('.');
  let level: readonly PlanStep[] = steps;
  for (const [i, part] of parts.entries()) {
    const element = /^([a-z][a-z0-9_]*)\[\d+\]$/.exec(part);
    const id = element ? element[1] : part;
    const step = outsideLoops(level).find((s) => s.id === id);
    if (!step) return undefined;
    if (i === parts.length - 1) return element ? undefined : step;
    if (!element || step.kind !== 'for_each') return undefined;
    level = step.steps;
  }
  return undefined;
}

/** A list's steps with those of its parallel groups and handlers, but not its loops' inner steps. */
function outsideLoops(steps: readonly PlanStep[]): PlanStep[] {
  return steps.flatMap((s) => [
    s,
    ...(s.kind === 'parallel' ? outsideLoops(s.steps) : []),
    ...(s.onError ? outsideLoops(s.onError) : []),
  ]);
}

/**
 * What the step's call is shown with: a skill's resolved input, a decision's question and
 * context; a chat message only its chat id (its title and text are sealed to the owner's keys).
 */
function shownInput(kind: PlanStep['kind'], args: Record<string, unknown>): unknown {
  if (kind === 'skill') return args.input ?? null;
  if (kind === 'chat') return { chat_id: args.chatId ?? null };
  const { question, context, decision } = args;
  return {
    decision: decision ?? null,
    question: question ?? null,
    ...(context !== undefined && { context }),
  };
}
