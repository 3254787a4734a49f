/**
 * Scope checks on a principal, free of the HTTP framework so services can apply them too (a
 * task's scope depends on what the task is, known only after it is looked up). Each failure is
 * a FORBIDDEN envelope naming the scope that would have allowed the call.
 */
import type { Plan } from '../definitions/index.js';
import { planSkills } from '../definitions/runtime/index.js';
import { errors } from '../lib/errors/errors.js';
import { allows, allowsSkill, allowsSkillRef, type NamedScope, type Principal } from '../lib/keys.js';

/** The principal, if it holds the named scope (`workflows`, `keys`, `admin`). */
export function requireNamedScope(p: Principal, scope: NamedScope): Principal {
  if (!allows(p, scope))
    throw errors.forbidden(`The API key lacks the "${scope}" scope.`, {
      required_scope: scope,
    });
  return p;
}

/** The principal, if it may call the skill (`*`, `app:<app>` or `skill:<app>.<skill>`). */
export function requireSkill(p: Principal, appId: string, skillId: string): Principal {
  if (!allowsSkill(p, appId, skillId)) {
    throw errors.forbidden(`The API key is not scoped to ${appId}.${skillId}.`, {
      required_scope: [`app:${appId}`, `skill:${appId}.${skillId}`],
    });
  }
  return p;
}

/**
 * The principal, if it may call every skill in `refs` (`<app>.<skill>`): what saving or
 * running a definition with `use_app_skill` steps needs. Details list the missing skills.
 */
export function requireSkillRefs(p: Principal, refs: readonly string[]): Principal {
  const missing = [...new Set(refs)].filter((ref) => !allowsSkillRef(p, ref)).sort();
  if (missing.length > 0) {
    throw errors.forbidden('The API key is not scoped to every skill this workflow uses.', {
      skills: missing,
      required_scope: missing.map((ref) => `skill:${ref}`),
    });
  }
  return p;
}

/**
 * The principal, if it may call the skill of every `use_app_skill` step of the plan, at any
 * depth, and of every child workflow it runs (`children`: resolved at start, or at save for a
 * schedule). Applied when a definition is saved (which authorises its schedule's future runs)
 * and when it is run or its schedule triggered.
 */
export function requirePlanScopes(
  p: Principal,
  plan: Plan,
  children?: { skills: readonly string[] },
): Principal {
  return requireSkillRefs(p, [...planSkills(plan), ...(children?.skills ?? [])]);
}
