/**
 * Per-owner caps, so one tenant cannot crowd out the others (README "Security"): definitions,
 * schedules, concurrently running workflow runs and open (queued or running) skill-call tasks.
 * Each is checked before the action that would exceed it and answered with 429
 * OWNER_LIMIT_REACHED. Counts of definitions come from the store; counts of open tasks from
 * Temporal visibility (OwnerId and TaskKind search attributes), which trails a start by a
 * moment, so concurrent requests can overshoot a cap by the number in flight.
 *
 * Counting running runs is a visibility query, so a run start does not make one every time:
 * while an owner's last count plus the starts this process let through since is below half the
 * cap, and the count is less than {@link RUN_COUNT_REUSE_MS} old, that sum stands in for it; at
 * half the cap and beyond, every start counts afresh. Each API process keeps its own sum, so
 * within one such second P processes together let through at most P × (cap / 2) starts beyond
 * the last count: with one or two API processes the cap still holds (up to the visibility lag
 * above), with P > 2 a burst inside one second can exceed it by at most (P − 2) × cap / 2.
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

/** How long a count of running runs stands in for a new one, far from the cap. */
export const RUN_COUNT_REUSE_MS = 1_000;
/** Bound on the owners whose count is kept. */
const RUN_COUNTS_MAX_OWNERS = 10_000;

const reached = (limit: OwnerLimitName, max: number) => errors.ownerLimitReached({ limit, max });

export class OwnerQuotas {
  /** Per owner: the running runs counted at `at`, plus the starts let through since. */
  private readonly runCounts = new Map<string, { count: number; at: number }>();

  constructor(
    private readonly temporal: TemporalClient,
    private readonly store: Store,
    readonly limits: OwnerLimits,
    /** The clock, in ms (tests inject one). */
    private readonly now: () => number = Date.now,
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
    const max = this.limits.runningRuns;
    const now = this.now();
    const known = this.runCounts.get(ownerId);
    // Far from the cap, a count read less than a second ago plus the starts let through since
    // stands in for a new count (runs that ended meanwhile still count: never too low).
    if (known && now - known.at < RUN_COUNT_REUSE_MS && known.count < max / 2) {
      known.count++;
      return;
    }
    const count = await this.openTasks(ownerId, 'workflow_run');
    if (count >= max) throw reached('running_runs', max);
    this.runCounts.delete(ownerId);
    this.runCounts.set(ownerId, { count: count + 1, at: now });
    if (this.runCounts.size > RUN_COUNTS_MAX_OWNERS)
      this.runCounts.delete(this.runCounts.keys().next().value!);
  }

  /** Before an authenticated skill call. */
  async checkSkillCall(ownerId: string): Promise<void> {
    if ((await this.openTasks(ownerId, 'skill_call')) >= this.limits.queuedTasks)
      throw reached('queued_tasks', this.limits.queuedTasks);
  }
}
