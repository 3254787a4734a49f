/**
 * Per-owner caps, so one tenant cannot crowd out the others (README "Security"): definitions,
 * schedules, concurrently running workflow runs and open (queued or running) skill-call tasks.
 * Each is checked before the action that would exceed it and answered with 429
 * OWNER_LIMIT_REACHED. Counts of definitions come from the store; counts of open tasks from
 * Temporal visibility (OwnerId and TaskKind search attributes), which trails a start by a
 * moment, so concurrent requests can overshoot a cap by the number in flight.
 *
 * Scheduled runs are not counted against the running-runs cap at start (Temporal starts them);
 * a schedule runs at most one at a time unless its overlap is `allow_all`, so they are bounded by
 * the schedule cap. A backfill is checked once, before its ticks start.
 */
import type { Plan } from '../../definitions/index.js';
import type { LimitsConfig } from '../config.js';
import { errors, type OwnerLimitName } from '../errors/errors.js';
import type { Store } from '../store/db.js';
import { countDefinitions, type StoredDefinition } from '../store/owners/definitions.js';
import type { TemporalClient } from '../temporal/client.js';
import { literal } from '../temporal/visibility.js';

/** The caps, from OWNER_MAX_* (docs/configuration.md). */
export interface OwnerLimits {
  definitions: number;
  schedules: number;
  runningRuns: number;
  queuedTasks: number;
}

export function ownerLimitsFromConfig(c: LimitsConfig): OwnerLimits {
  return {
    definitions: c.OWNER_MAX_DEFINITIONS,
    schedules: c.OWNER_MAX_SCHEDULES,
    runningRuns: c.OWNER_MAX_RUNNING_RUNS,
    queuedTasks: c.OWNER_MAX_QUEUED_TASKS,
  };
}

const reached = (limit: OwnerLimitName, max: number) => errors.ownerLimitReached({ limit, max });

export class OwnerQuotas {
  constructor(
    private readonly temporal: TemporalClient,
    private readonly store: Store,
    readonly limits: OwnerLimits,
  ) {}

  private async openTasks(ownerId: string, kind: 'workflow_run' | 'skill_call'): Promise<number> {
    const query = `OwnerId = ${literal(ownerId)} AND TaskKind = ${literal(kind)} AND ExecutionStatus = "Running"`;
    return (await this.temporal.client.workflow.count(query)).count;
  }

  /** Before a save: a new definition counts against `definitions`, a new schedule against `schedules`. */
  async checkSave(ownerId: string, plan: Plan, current?: StoredDefinition): Promise<void> {
    if (!current && (await countDefinitions(this.store, ownerId)) >= this.limits.definitions)
      throw reached('definitions', this.limits.definitions);
    const addsSchedule = plan.trigger.type === 'schedule' && current?.triggerType !== 'schedule';
    if (addsSchedule && (await countDefinitions(this.store, ownerId, 'schedule')) >= this.limits.schedules)
      throw reached('schedules', this.limits.schedules);
  }

  /** Before a manual run, a schedule trigger or a backfill. */
  async checkRunStart(ownerId: string): Promise<void> {
    if ((await this.openTasks(ownerId, 'workflow_run')) >= this.limits.runningRuns)
      throw reached('running_runs', this.limits.runningRuns);
  }

  /** Before an authenticated skill call. */
  async checkSkillCall(ownerId: string): Promise<void> {
    if ((await this.openTasks(ownerId, 'skill_call')) >= this.limits.queuedTasks)
      throw reached('queued_tasks', this.limits.queuedTasks);
  }
}
