/** Temporal activity options from a policy snapshot (activities/policy.ts, taken at start time). */
import type { ActivityOptions } from '@temporalio/workflow';
import type { ActivityPolicy } from '../activities/policy.js';

export function activityOptions(policy: ActivityPolicy): ActivityOptions {
  return {
    startToCloseTimeout: policy.startToCloseTimeout,
    scheduleToCloseTimeout: policy.scheduleToCloseTimeout,
    ...(policy.heartbeatTimeout ? { heartbeatTimeout: policy.heartbeatTimeout } : {}),
    retry: policy.retry,
  };
}
