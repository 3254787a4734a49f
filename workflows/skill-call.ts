/**
 * One authenticated skill call as a workflow: uniform policies, visibility and scale (issue 5).
 * The activity options are snapshotted by the caller from the policy module.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { ActivityPolicy } from '../activities/policy.js';
import type { FullSkillResult } from '../activities/index.js';

export interface SkillCallInput {
  /** `<app>.<skill>`: the activity name. */
  skill: string;
  input: unknown;
  policy: ActivityPolicy;
}

export async function runSkillCall(args: SkillCallInput): Promise<FullSkillResult> {
  const acts = proxyActivities<Record<string, (req: { input: unknown; view: 'full' }) => Promise<FullSkillResult>>>({
    startToCloseTimeout: args.policy.startToCloseTimeout,
    scheduleToCloseTimeout: args.policy.scheduleToCloseTimeout,
    ...(args.policy.heartbeatTimeout ? { heartbeatTimeout: args.policy.heartbeatTimeout } : {}),
    retry: args.policy.retry,
  });
  const activity = acts[args.skill];
  if (!activity) throw new Error('unreachable: proxyActivities returns a function for every name');
  return activity({ input: args.input, view: 'full' });
}
