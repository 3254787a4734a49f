/**
 * Authenticated skill calls. The limits decide first when a call may run
 * (api/services/call-limits.ts: tier, provider and owner-share counters charged in one store
 * statement):
 * - within the caller's tier limit and with room at every provider the call will use, a quick
 *   (sync) skill runs in this process (activities/runtime/run-skill.ts, under the policy
 *   deadline) and is answered inline; no workflow is started. A request beyond the ones it
 *   announced that finds a limit of ours used up waits for the reset within that deadline; a
 *   call refused part-way (the wait would pass the deadline) fails and is not billed;
 * - over the tier limit, a provider limit or the caller's share of one (found before dispatch,
 *   or by the upstream meter before the call sent anything), it is queued (queued and
 *   retried on reset instead of rejected): a `runSkillCall` workflow starts with a delay to the
 *   reset time and the caller gets `202 { task_id, status: "queued" }` at once. The queue is
 *   bounded per API key (QUEUE_MAX_PER_KEY); past it the answer is 429 with Retry-After;
 * - a long-running (async) skill always runs as a `runSkillCall` workflow and answers at once
 *   with its task id and embed id.
 * Only calls that open a task count against the owner's cap of open skill-call tasks. Every
 * accepted call gets a usage record, billed to the caller or to the team named by `team_id`:
 * under its task id (written before the answer), or under its call id (`call_…`) when it was
 * answered inline (written within 50 ms of the answer, lib/store/owners/usage-records.ts); a
 * task our own provider limit refused for good loses it (activities/task-usage-refund.ts). A
 * call has one record: its id derives from the call or task id, which derive from the
 * request's Idempotency-Key claim when it has one, so a retry that takes over the claim of a
 * request whose API died finds the task already started and bills nothing twice. An
 * inline answer bills the items the skill says it charged for (`billableItems`: an
 * encyclopedia item the cache answered costs nothing), else every item.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import { requestItems } from '../../activities/registry/request-items.js';
import { providerUsesOf, providerWait } from '../../activities/runtime/provider-uses.js';
import {
  policyDeadlineMs,
  runSkill,
  type FullSkillResult,
  type RunnableSkill,
} from '../../activities/runtime/run-skill.js';
import type { CallMeter } from '../../activities/runtime/upstream-meter.js';
import type { Config } from '../../lib/config.js';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import { grantsOf, type Principal } from '../../lib/keys.js';
import type { Limits } from '../../lib/limits/index.js';
import type { RateLimitHeaders } from '../../lib/limits/tier-limits.js';
import type { Store } from '../../lib/store/db.js';
import { createPendingEmbed } from '../../lib/store/owners/embeds.js';
import type { TemporalClient } from '../../lib/temporal/client.js';
import { OwnerId, SkillRef, TaskKind } from '../../lib/temporal/search-attributes.js';
import type { NewUsage, Payer, UsageRecords } from '../../lib/store/owners/usage-records.js';
import { PROGRESS_MEMO_KEY, pendingStep } from '../../workflows/progress.js';
import type { SkillCallInput } from '../../workflows/skill-call.js';
import { CallLimits } from './call-limits.js';
import { traceMemo } from '../../lib/tracing/temporal.js';

export type CallOutcome =
  | { kind: 'completed'; callId: string; result: FullSkillResult }
  | { kind: 'queued'; taskId: string; retryAfterMs: number }
  | { kind: 'started'; taskId: string; embedId: string };

export interface CallOptions {
  /** Who pays: the caller, or a team (membership and spending right already checked). */
  payer: Payer;
  /**
   * Where the X-RateLimit-* headers go when the route left the tier counter to the call
   * (api/auth.ts `takeDeferredTier`): it is then charged with the call's other limits.
   */
  tierHeaders?: RateLimitHeaders | undefined;
  /**
   * The seed of the request's Idempotency-Key claim (api/idempotency.ts): the call, task and
   * embed ids derive from it, so a retry that takes over the unanswered claim of a request whose
   * API died finds the task it started and bills its usage record once.
   */
  seed?: string | undefined;
}

/** The id of an inline call's usage record: drawn at random, or derived from its claim's seed. */
function callIdOf(seed: string | undefined): string {
  return seed ? `call_${seed}` : `call_${randomUUID()}`;
}

/** The ids a task's work creates: drawn at random, or derived from its claim's seed. */
function taskIdsOf(seed: string | undefined): { taskId: string; embedId: string } {
  if (!seed) return { taskId: `task_${randomUUID()}`, embedId: `emb_${randomBytes(12).toString('hex')}` };
  const embed = createHash('sha256').update(`embed\n${seed}`).digest('hex').slice(0, 24);
  return { taskId: `task_${seed}`, embedId: `emb_${embed}` };
}

type Skill = RunnableSkill;

/**
 * The wait a used-up provider limit imposes on an inline run that sent nothing upstream (the
 * meter refused its first request): such a call is queued, as the activity would have been
 * retried at the reset. Undefined for every other failure, which is the call's answer.
 */
function limitBeforeSending(err: unknown, sent: number): number | undefined {
  if (sent > 0 || !(err instanceof SkillflowError) || err.code !== 'UPSTREAM_RATE_LIMITED') return undefined;
  return Math.max(1000, err.retryAfterMs ?? 1000);
}

export class SkillCallsService {
  private readonly limits: CallLimits;

  /** `all`: the process's limits (lib/limits/index.ts); the call's own are charged through {@link CallLimits}. */
  constructor(
    private readonly temporal: TemporalClient,
    private readonly config: Config,
    private readonly store: Store,
    private readonly usage: UsageRecords,
    private readonly all: Limits,
  ) {
    this.limits = new CallLimits(all.leases, all.providers, all.ownerShare, all.tier);
  }

  /** Runs (or queues) one call whose input the HTTP edge has validated. */
  async call(principal: Principal, skill: Skill, input: unknown, opts: CallOptions): Promise<CallOutcome> {
    const ref = refOf(skill);
    if (skill.manifest.capabilities.mode === 'async') {
      // The workflow's activity charges the providers as it sends; here only the tier is
      // charged and the providers are read, to start it at their reset when one is used up.
      const { waitMs } = await this.limits.reserve(principal, ref, [], opts.tierHeaders);
      const busy = await providerWait(skill, input, this.all.providers, {
        share: this.all.ownerShare,
        ownerId: principal.ownerId,
      });
      return this.startTask(principal, skill, input, opts, Math.max(waitMs, busy?.retryAfterMs ?? 0));
    }
    // A request beyond the announced ones may wait for our own limit within the call's deadline.
    const deadlineMs = policyDeadlineMs(skill);
    const reservation = await this.limits.reserve(
      principal,
      ref,
      providerUsesOf(skill, input),
      opts.tierHeaders,
      { deadlineAt: Date.now() + deadlineMs },
    );
    if (!reservation.meter) return this.startTask(principal, skill, input, opts, reservation.waitMs);
    return this.answerInline(principal, skill, input, opts, reservation.meter);
  }

  /** A quick call with room everywhere: run here, answer inline, record its usage after. */
  private async answerInline(
    principal: Principal,
    skill: Skill,
    input: unknown,
    opts: CallOptions,
    meter: CallMeter,
  ): Promise<CallOutcome> {
    const callId = callIdOf(opts.seed);
    let result: FullSkillResult;
    try {
      result = await runSkill(skill, input, {
        view: 'full',
        meter,
        anonymous: false,
        deadlineMs: policyDeadlineMs(skill),
        validated: true,
      });
    } catch (err) {
      await meter.settle();
      const waitMs = limitBeforeSending(err, meter.total());
      if (waitMs !== undefined) return this.startTask(principal, skill, input, opts, waitMs);
      // Refused by our own limit part-way (its reset would have passed the deadline): not billed.
      if (err === meter.refusal()) throw err;
      // A failed call is accepted and charged like a failed task was.
      await this.usage.defer(
        this.usageOf(callId, principal, skill, input, opts, false, undefined, meter.decisionUsage()),
      );
      throw err;
    }
    await meter.settle();
    await this.usage.defer(
      this.usageOf(callId, principal, skill, input, opts, false, result.output, meter.decisionUsage()),
    );
    return { kind: 'completed', callId, result };
  }

  /** A call that becomes a task: long-running, or queued to a limit's reset (`delayMs` > 0). */
  private async startTask(
    principal: Principal,
    skill: Skill,
    input: unknown,
    opts: CallOptions,
    delayMs: number,
  ): Promise<CallOutcome> {
    await this.all.charge('owner_quota', { ownerId: principal.ownerId, quota: 'queued_tasks' });
    const ref = refOf(skill);
    const ids = taskIdsOf(opts.seed);
    const taskId = ids.taskId;
    if (delayMs > 0) {
      await this.all.charge('queued_call', {
        taskId,
        keyId: principal.keyId,
        ownerId: principal.ownerId,
        runAt: new Date(Date.now() + delayMs),
      });
    }
    const async = skill.manifest.capabilities.mode === 'async';
    const embedId = async ? ids.embedId : undefined;
    if (embedId) {
      await createPendingEmbed(this.store, { id: embedId, ownerId: principal.ownerId, taskId, skill: ref });
    }
    const args: SkillCallInput = {
      skill: ref,
      input,
      policy: skill.policy.activity,
      ...(embedId ? { embedId } : {}),
      ownerId: principal.ownerId,
      ...grantsOf(principal),
    };
    try {
      await this.temporal.client.workflow.start('runSkillCall', {
        taskQueue: this.config.temporal.TEMPORAL_TASK_QUEUE,
        workflowId: taskId,
        args: [args],
        ...(delayMs > 0 ? { startDelay: delayMs } : {}),
        ...(opts.seed && { workflowIdReusePolicy: 'REJECT_DUPLICATE' as const }),
        typedSearchAttributes: new TypedSearchAttributes([
          { key: TaskKind, value: 'skill_call' },
          { key: SkillRef, value: ref },
          { key: OwnerId, value: principal.ownerId },
        ]),
        memo: { [PROGRESS_MEMO_KEY]: { steps: [pendingStep(ref)] }, ...traceMemo() },
      });
    } catch (err) {
      // A retry of a request whose first attempt started the task: that task is the answer.
      if (!(opts.seed && err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
    await this.usage.record(this.usageOf(taskId, principal, skill, input, opts, delayMs > 0));
    if (embedId) return { kind: 'started', taskId, embedId };
    return { kind: 'queued', taskId, retryAfterMs: delayMs };
  }

  /** The usage record of a call; `output` (a completed inline call) lets the skill say what it bills. */
  private usageOf(
    id: string,
    principal: Principal,
    skill: Skill,
    input: unknown,
    opts: CallOptions,
    queued: boolean,
    output?: unknown,
    decision?: NewUsage['decision'],
  ): NewUsage {
    const items = requestItems(input);
    const billed =
      output !== undefined && skill.impl.billableItems ? skill.impl.billableItems(output) : items;
    // A skill free over first-party sessions (the encyclopedia) costs the workspace nothing.
    const free = principal.sessionId !== undefined && skill.manifest.pricing.freeOverSession === true;
    return {
      taskId: id,
      ownerId: principal.ownerId,
      keyId: principal.keyId,
      payer: opts.payer,
      skill: refOf(skill),
      requestItems: items,
      credits: free ? 0 : billed * skill.manifest.pricing.creditsPerRequest,
      queued,
      decision,
    };
  }
}

function refOf(skill: Skill): string {
  return `${skill.manifest.appId}.${skill.manifest.id}`;
}
