/**
 * Entry module: every activity the worker registers. Skill activities are named by their
 * `<app>.<skill>` reference; platform activities by verb.
 */
import type { ProviderLimits } from './provider-limits.js';
import type { Registry } from './registry/registry.js';
import { skillActivity, unavailableSkillActivity } from './skill-activity.js';

export type ActivityFn = (...args: never[]) => Promise<unknown>;

/** Skill activities; with `providerLimits`, each charges its provider counters per upstream request. */
export function createActivities(
  registry: Registry,
  providerLimits?: ProviderLimits,
): Record<string, ActivityFn> {
  const activities: Record<string, ActivityFn> = {};
  for (const skill of registry.all()) {
    const ref = `${skill.manifest.appId}.${skill.manifest.id}`;
    activities[ref] = skill.impl
      ? skillActivity({ ...skill, impl: skill.impl }, providerLimits)
      : unavailableSkillActivity(ref);
  }
  return activities;
}

export { runSkill, type SkillActivityInput, type FullSkillResult } from './skill-activity.js';
