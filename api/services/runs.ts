/**
 * Starting and listing runs of a definition, and its Temporal Schedule. Each run gets the plan
 * snapshot and the per-step activity policies in its input; search attributes carry ids only.
 */
import { randomUUID } from 'node:crypto';
import {
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type ScheduleOptionsAction,
  WorkflowExecutionAlreadyStartedError,
  type WorkflowExecutionInfo,
} from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import { activityPolicy, type ActivityPolicy, type PolicyName } from '../../activities/policy.js';
import type { ScheduleState } from '../schemas.js';
import type { Registry } from '../../activities/registry/registry.js';
import {
  allSteps,
  callsActivity,
  type ActivityPlanStep,
  type Plan,
} from '../../definitions/runtime/index.js';
import type { Config } from '../../lib/config.js';
import { errors } from '../../lib/errors/errors.js';
import type { TemporalClient } from '../../lib/temporal/client.js';
import {
  DefinitionId,
  DefinitionVersion,
  OwnerId,
  RerunOf,
  TaskKind,
  TriggerType,
} from '../../lib/temporal/search-attributes.js';
import { PROGRESS_MEMO_KEY, pendingSteps, type RunProgress } from '../../workflows/progress.js';
import type { RunDefinitionInput } from '../../workflows/run-definition.js';
import type { RunSummary } from '../schemas.js';
import type { StoredDefinition } from './definitions.js';
import { workflowSteps, type ChildDefinitions, type ResolvedChildren } from './child-definitions.js';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import { literal } from '../../lib/temporal/visibility.js';
import { checkedRunInputs } from './run-inputs.js';
import { memoSteps, RunProgressReader } from './run-progress.js';
import { traceMemo } from '../../lib/tracing/temporal.js';
import { taskStatus } from './tasks.js';
import { overlapOf, schedulePolicies } from './schedule-policy.js';
import { backfillSchedule, checkWindowBounds, type BackfillWindow } from './schedule-backfill.js';
import { deleteScheduleUpTo, syncScheduleVersion } from './schedule-sync.js';
import type { ScheduleOverlap } from '../../definitions/runtime/plan.js';
import { grantsOf, type Principal } from '../../lib/keys.js';
import { literalGrants, optionRulesOf, type OptionRules } from '../scopes.js';

/** How a run started, as its TriggerType search attribute says. */
type RunTrigger = 'manual' | 'schedule' | 'event' | 'webhook';

/** The definition's schedule trigger, or 409 when it has none. */
function scheduleTrigger(def: StoredDefinition): Extract<Plan['trigger'], { type: 'schedule' }> {
  const trigger = def.plan.trigger;
  if (trigger.type !== 'schedule')
    throw errors.conflict(`This workflow has no schedule (start_when is ${trigger.type}).`);
  return trigger;
}

export function scheduleIdOf(definitionId: string): string {
  return `schedule_${definitionId}`;
}

export class RunsService {
  private readonly progress: RunProgressReader;

  constructor(
    private readonly temporal: TemporalClient,
    private readonly config: Config,
    private readonly registry: Registry,
    /** Resolves `use_workflow` children at start; without it a plan that has some is refused. */
    private readonly children?: ChildDefinitions,
  ) {
    this.progress = new RunProgressReader(temporal);
  }

  /**
   * Activity options for every step that calls an activity, from the policy module (a step's
   * `timeout` and `retry` narrow them); a wait_for_event step's, for its event index writes.
   * Wait and fail steps call none.
   */
  policiesFor(plan: Plan): Record<string, ActivityPolicy> {
    const out: Record<string, ActivityPolicy> = {};
    for (const step of allSteps(plan.steps))
      if (callsActivity(step))
        out[step.id] = activityPolicy(this.profileOf(step), step.timeoutMs, step.retry);
      else if (step.kind === 'event_wait') out[step.id] = activityPolicy('event-index');
    return out;
  }

  private profileOf(step: ActivityPlanStep): PolicyName {
    if (step.kind === 'chat') return 'chat-delivery';
    if (step.kind === 'decide') return 'decision';
    const [app = '', skill = ''] = step.skill.split('.');
    return this.registry.get(app, skill)?.policy.name ?? 'upstream-lookup';
  }

  private searchAttributes(def: StoredDefinition, trigger: RunTrigger) {
    return new TypedSearchAttributes([
      { key: DefinitionId, value: def.id },
      { key: DefinitionVersion, value: def.version },
      { key: TriggerType, value: trigger },
      { key: TaskKind, value: 'workflow_run' },
      { key: OwnerId, value: def.ownerId },
    ]);
  }

  /**
   * The definitions a plan's `use_workflow` steps run, resolved now (a snapshot) with every skill
   * they call, for the caller's scope check. `definitionId`: the plan's own, once it has one.
   */
  async resolveChildren(ownerId: string, plan: Plan, definitionId?: string): Promise<ResolvedChildren> {
    if (workflowSteps(plan.steps).length === 0) return { skills: [] };
    if (!this.children) throw new SkillflowError('INTERNAL');
    return this.children.resolve(ownerId, plan, (p) => this.policiesFor(p), definitionId);
  }

  /** The restricted options of the registry's skills (api/scopes.ts). */
  get optionRules(): OptionRules {
    return optionRulesOf(this.registry);
  }

  /**
   * The restricted scopes a run is granted: its starting key's; a run with no key (a schedule's,
   * a webhook's) gets those its definition writes literally, which the saving key was checked for.
   */
  private grants(plan: Plan, children: ResolvedChildren['children'], by?: Principal): { grants?: string[] } {
    return by ? grantsOf(by) : literalGrants(plan, children, this.optionRules);
  }

  private runInput(
    def: StoredDefinition,
    inputs: Record<string, unknown>,
    trigger: RunTrigger,
    { children }: ResolvedChildren,
    by?: Principal,
  ): RunDefinitionInput {
    return {
      plan: def.plan,
      definitionId: def.id,
      definitionVersion: def.version,
      ownerId: def.ownerId,
      trigger,
      inputs,
      policies: this.policiesFor(def.plan),
      ...(children && { children }),
      ...this.ownerCap(),
      ...this.grants(def.plan, children, by),
    };
  }

  /** The owner's cap on runs with a step running, as configured now (run-slots.ts). */
  private ownerCap(): Pick<RunDefinitionInput, 'ownerCap'> {
    const cap = this.config.limits.OWNER_RUN_CONCURRENCY;
    return cap > 0 ? { ownerCap: cap } : {};
  }

  /** The progress memo a run starts with, so a queued run already lists its steps as pending. */
  private initialMemo(plan: Plan): Record<string, RunProgress> {
    return {
      [PROGRESS_MEMO_KEY]: {
        steps: pendingSteps(plan.steps),
      },
    };
  }

  /**
   * Starts a manual run; the task id is the workflow id. `resolved`: its children, when the
   * caller already resolved them (for its scope check).
   */
  async startRun(
    def: StoredDefinition,
    provided: Record<string, unknown> = {},
    resolved?: ResolvedChildren,
    trigger: Exclude<RunTrigger, 'schedule'> = 'manual',
    claimedId?: string,
    /** The key that starts it (none for a webhook's run): its restricted scopes are granted. */
    by?: Principal,
  ): Promise<string> {
    const inputs = checkedRunInputs(def.plan, provided);
    const children = resolved ?? (await this.resolveChildren(def.ownerId, def.plan, def.id));
    const taskId = claimedId ?? `task_${randomUUID()}`;
    try {
      await this.temporal.client.workflow.start('runDefinition', {
        taskQueue: this.config.temporal.TEMPORAL_TASK_QUEUE,
        workflowId: taskId,
        args: [this.runInput(def, inputs, trigger, children, by)],
        typedSearchAttributes: this.searchAttributes(def, trigger),
        memo: { ...this.initialMemo(def.plan), ...traceMemo() },
        // A task id from an idempotency key names one run for good, even once it has closed.
        ...(claimedId && { workflowIdReusePolicy: 'REJECT_DUPLICATE' as const }),
      });
    } catch (err) {
      // The same request got here first (its answer was lost): that run is this request's run.
      if (claimedId && err instanceof WorkflowExecutionAlreadyStartedError) return taskId;
      throw err;
    }
    return taskId;
  }

  /**
   * Starts a re-run of `rerunOf` from its decided input (the earlier run's snapshot with what it
   * takes over); its TriggerType is `rerun` and its RerunOf names the earlier run.
   */
  async startRerun(snapshot: RunDefinitionInput, rerunOf: string, by: Principal): Promise<string> {
    const taskId = `task_${randomUUID()}`;
    const { ownerCap: _earlier, grants: _theirs, ...rest } = snapshot;
    // The re-running key's restricted scopes, not the earlier run's.
    const input: RunDefinitionInput = { ...rest, ...this.ownerCap(), ...grantsOf(by) };
    await this.temporal.client.workflow.start('runDefinition', {
      taskQueue: this.config.temporal.TEMPORAL_TASK_QUEUE,
      workflowId: taskId,
      args: [input],
      typedSearchAttributes: new TypedSearchAttributes([
        { key: DefinitionId, value: input.definitionId },
        { key: DefinitionVersion, value: input.definitionVersion },
        { key: TriggerType, value: 'rerun' },
        { key: TaskKind, value: 'workflow_run' },
        { key: OwnerId, value: input.ownerId },
        { key: RerunOf, value: rerunOf },
      ]),
      memo: this.initialMemo(input.plan),
    });
    return taskId;
  }

  /**
   * The definition's latest runs. An open run is `queued` or `running` by whether its first
   * workflow task completed (run-progress.ts: describes, bounded, never a query).
   */
  async listRuns(def: StoredDefinition, limit = 50): Promise<RunSummary[]> {
    const listed: WorkflowExecutionInfo[] = [];
    const query = `DefinitionId = ${literal(def.id)} AND OwnerId = ${literal(def.ownerId)}`;
    for await (const wf of this.temporal.client.workflow.list({ query, pageSize: limit })) {
      listed.push(wf);
      if (listed.length >= limit) break;
    }
    const started = await this.progress.startedOf(listed);
    return listed.map((wf, i) => ({
      task_id: wf.workflowId,
      status: taskStatus(wf.status.name, memoSteps(wf.memo), started[i]),
      trigger: wf.typedSearchAttributes.get(TriggerType) ?? null,
      definition_version: wf.typedSearchAttributes.get(DefinitionVersion) ?? null,
      started_at: wf.startTime.toISOString(),
      finished_at: wf.closeTime?.toISOString() ?? null,
    }));
  }

  private async scheduleAction(def: StoredDefinition): Promise<ScheduleOptionsAction> {
    return {
      type: 'startWorkflow',
      workflowType: 'runDefinition',
      taskQueue: this.config.temporal.TEMPORAL_TASK_QUEUE,
      workflowId: `task_sched_${def.id}`,
      args: [this.runInput(def, {}, 'schedule', await this.resolveChildren(def.ownerId, def.plan, def.id))],
      typedSearchAttributes: this.searchAttributes(def, 'schedule'),
      memo: this.initialMemo(def.plan),
    };
  }

  /**
   * Creates, updates or removes the definition's schedule to match its trigger, in version
   * order (schedule-sync.ts): a sync never moves the schedule back to an older version.
   */
  async syncSchedule(def: StoredDefinition): Promise<void> {
    const trigger = def.plan.trigger;
    const scheduleId = scheduleIdOf(def.id);
    if (trigger.type !== 'schedule') return deleteScheduleUpTo(this.temporal.client, scheduleId, def.version);
    const spec = {
      ...('cron' in trigger
        ? { cronExpressions: [trigger.cron] }
        : { intervals: [{ every: trigger.everyMs }] }),
      timezone: trigger.timezone,
    };
    await syncScheduleVersion(this.temporal.client, scheduleId, {
      version: def.version,
      spec,
      action: await this.scheduleAction(def),
      policies: schedulePolicies(trigger),
      typedSearchAttributes: new TypedSearchAttributes([
        { key: DefinitionId, value: def.id },
        { key: OwnerId, value: def.ownerId },
      ]),
    });
  }

  async deleteSchedule(definitionId: string): Promise<void> {
    try {
      await this.temporal.client.schedule.getHandle(scheduleIdOf(definitionId)).delete();
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    }
  }

  async controlSchedule(def: StoredDefinition, op: 'pause' | 'resume' | 'trigger'): Promise<ScheduleState> {
    scheduleTrigger(def);
    const handle = this.temporal.client.schedule.getHandle(scheduleIdOf(def.id));
    if (op === 'pause') await handle.pause('paused through the API');
    else if (op === 'resume') await handle.unpause('resumed through the API');
    else {
      // A manual trigger never piles up runs: refused while one is running, and SKIP (not
      // ALLOW_ALL) as the backstop for two triggers racing past this check.
      if ((await handle.describe()).info.runningActions.length > 0)
        throw errors.conflict('A run of this schedule is still running; trigger it again later.');
      await handle.trigger(ScheduleOverlapPolicy.SKIP);
    }
    return this.scheduleState(def.id);
  }

  /**
   * Runs the schedule's ticks of a past window now (schedule-backfill.ts), with the window's
   * overlap policy or the schedule's; answers the ticks and the overlap used.
   */
  async backfillSchedule(
    def: StoredDefinition,
    window: Omit<BackfillWindow, 'overlap'> & { overlap?: ScheduleOverlap | undefined },
  ): Promise<{ ticks: number; overlap: ScheduleOverlap }> {
    const trigger = scheduleTrigger(def);
    checkWindowBounds(window, new Date());
    const overlap = window.overlap ?? overlapOf(trigger);
    const ticks = await backfillSchedule(this.temporal, scheduleIdOf(def.id), trigger, {
      ...window,
      overlap,
    });
    return { ticks, overlap };
  }

  async scheduleState(definitionId: string): Promise<ScheduleState> {
    const d = await this.temporal.client.schedule.getHandle(scheduleIdOf(definitionId)).describe();
    return {
      schedule_id: d.scheduleId,
      paused: d.state.paused,
      timezone: d.spec.timezone ?? null,
      next_runs: d.info.nextActionTimes.slice(0, 5).map((t) => t.toISOString()),
      recent_task_ids: d.info.recentActions.map((a) => a.action.workflow.workflowId),
    };
  }
}
