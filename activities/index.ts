/**
 * Entry module: every activity the worker registers. Skill activities are named by their
 * `<app>.<skill>` reference; platform activities by verb.
 */
import type { OwnerProviderShare } from '../lib/limits/owner-provider-share.js';
import type { ProviderLimits } from '../lib/limits/provider-limits.js';
import type { Registry } from './registry/registry.js';
import { skillActivity, unavailableSkillActivity } from './runtime/skill-activity.js';
import type { UsageRecords } from '../lib/store/owners/usage-records.js';

export type ActivityFn = (...args: never[]) => Promise<unknown>;

/**
 * Skill activities; with `providerLimits`, each charges its provider counters per upstream
 * request, and with `ownerShare` the calling owner's share of them first; with `usage`, a
 * skill-call task's decision usage is written on its usage record.
 */
export function createActivities(
  registry: Registry,
  providerLimits?: ProviderLimits,
  ownerShare?: OwnerProviderShare,
  usage?: UsageRecords,
): Record<string, ActivityFn> {
  const activities: Record<string, ActivityFn> = {};
  for (const skill of registry.all()) {
    const ref = `${skill.manifest.appId}.${skill.manifest.id}`;
    activities[ref] = skill.impl
      ? skillActivity(
          { ...skill, impl: skill.impl },
          providerLimits ? { providerLimits, ownerShare } : undefined,
          usage,
        )
      : unavailableSkillActivity(ref);
  }
  return activities;
}

export { runSkill, type RunContext, type FullSkillResult } from './runtime/run-skill.js';
export type { SkillActivityInput } from './runtime/skill-activity.js';
