/**
 * A definition's schedule policies as Temporal takes them: the trigger's overlap policy and
 * catch-up window (the defaults when the plan names none, as older plans never do) and
 * pause-on-failure off.
 */
import { ScheduleOverlapPolicy } from '@temporalio/client';
import {
  DEFAULT_SCHEDULE_POLICY,
  type ScheduleOverlap,
  type SchedulePolicy,
} from '../../definitions/runtime/plan.js';

/** The language's overlap names, as Temporal's policies. */
const OVERLAP: Record<ScheduleOverlap, ScheduleOverlapPolicy> = {
  skip: ScheduleOverlapPolicy.SKIP,
  buffer_one: ScheduleOverlapPolicy.BUFFER_ONE,
  buffer_all: ScheduleOverlapPolicy.BUFFER_ALL,
  cancel_other: ScheduleOverlapPolicy.CANCEL_OTHER,
  terminate_other: ScheduleOverlapPolicy.TERMINATE_OTHER,
  allow_all: ScheduleOverlapPolicy.ALLOW_ALL,
};

export function temporalOverlap(overlap: ScheduleOverlap): ScheduleOverlapPolicy {
  return OVERLAP[overlap];
}

/** The overlap a trigger's schedule uses. */
export function overlapOf(policy: SchedulePolicy): ScheduleOverlap {
  return policy.overlap ?? DEFAULT_SCHEDULE_POLICY.overlap;
}

/** The `policies` of the definition's Temporal Schedule (README "Schedules"). */
export function schedulePolicies(policy: SchedulePolicy) {
  return {
    overlap: temporalOverlap(overlapOf(policy)),
    /** Runs missed while the cluster was down are caught up only within this window. */
    catchupWindow: policy.catchupWindowMs ?? DEFAULT_SCHEDULE_POLICY.catchupWindowMs,
    /** A failed run does not pause the schedule: the next tick may well succeed (upstream outage). */
    pauseOnFailure: false,
  };
}
