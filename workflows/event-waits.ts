/**
 * `wait_for_event` steps: the run records its wait in the event index (an activity), then waits
 * on a durable timer until the `event` signal brings a matching event, or the timeout passes.
 * The API signals only runs whose recorded wait fits (owner, name, match hash); the handler checks
 * the name and the match again, so a signal for a step that no longer waits, or that does not fit,
 * changes nothing. The wait is removed from the index when it ends, also when the run is
 * cancelled. Deterministic workflow code.
 */
import {
  ApplicationFailure,
  CancellationScope,
  condition,
  defineSignal,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type { EventWaitIndex } from '../activities/platform/event-waits.js';
import {
  eventMatches,
  renderTemplate,
  type EventWaitPlanStep,
  type RunScope,
} from '../definitions/runtime/index.js';
import { activityOptions } from './activity-options.js';
import type { StepProgress } from './progress.js';
import type { RunContext } from './run-context.js';

/** What the API sends to a waiting run: the step it fits, and the event. */
export interface EventDelivery {
  step: string;
  name: string;
  data: Record<string, unknown>;
}

export const eventSignal = defineSignal<[EventDelivery]>('event');

export interface EventWaitOutput {
  received: boolean;
  data: Record<string, unknown>;
}

/** A run's event waits: the waiting steps and the events that reached them. */
export class EventWaits {
  private readonly waiting = new Map<string, { name: string; match: Record<string, string> }>();
  private readonly received = new Map<string, Record<string, unknown>>();

  /** Installs the signal handler (it issues no command, so every run may have it). */
  constructor() {
    setHandler(eventSignal, (d) => this.deliver(d));
  }

  private deliver(d: EventDelivery): void {
    const wait = typeof d?.step === 'string' ? this.waiting.get(d.step) : undefined;
    if (!wait || this.received.has(d.step) || d.name !== wait.name) return;
    if (!d.data || typeof d.data !== 'object' || Array.isArray(d.data) || !eventMatches(wait.match, d.data))
      return;
    this.received.set(d.step, d.data);
  }

  /** Waits for the step's event until its timeout; answers the step's output. */
  async wait(
    step: EventWaitPlanStep,
    scope: RunScope,
    state: StepProgress,
    ctx: Pick<RunContext, 'facts' | 'now'>,
  ): Promise<EventWaitOutput> {
    const policy = ctx.facts.policies[step.id];
    if (!policy) throw ApplicationFailure.nonRetryable('A step has no activity policy.', 'INTERNAL');
    const { registerEventWait, releaseEventWait } = proxyActivities<EventWaitIndex>(activityOptions(policy));
    const match = Object.fromEntries(
      Object.entries(step.match).map(([field, template]) => [field, renderTemplate(template, scope)]),
    );
    const expiresAt = new Date(Date.parse(ctx.now()) + step.timeoutMs).toISOString();
    const where = { workflowId: ctx.facts.taskId, stepId: step.id };
    // Listening before the wait is recorded: an event sent just after it is kept.
    this.waiting.set(step.id, { name: step.name, match });
    try {
      await registerEventWait({ ...where, ownerId: ctx.facts.ownerId, name: step.name, match, expiresAt });
      // Shown once recorded: from now on an event finds the run.
      state.event = { name: step.name, expires_at: expiresAt };
      await condition(
        () => this.received.has(step.id),
        Math.max(0, Date.parse(expiresAt) - Date.parse(ctx.now())),
      );
    } finally {
      this.waiting.delete(step.id);
      await CancellationScope.nonCancellable(() => releaseEventWait(where));
    }
    // An event that arrived in the same workflow task as the timer firing still counts.
    const data = this.received.get(step.id);
    if (data) return { received: true, data };
    if (step.onTimeout === 'continue') return { received: false, data: {} };
    throw ApplicationFailure.nonRetryable(
      'No matching event arrived before the wait timed out.',
      'EVENT_TIMED_OUT',
    );
  }
}
