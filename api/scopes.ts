/**
 * Scope checks on a principal, free of the HTTP framework so services can apply them too (a
 * task's scope depends on what the task is, known only after it is looked up). Each failure is
 * a FORBIDDEN envelope naming the scope that would have allowed the call.
 */
import type { Plan } from '../definitions/index.js';
import { planSkills } from '../definitions/runtime/index.js';
import { literalOptionUses, type OptionRule } from '../definitions/runtime/option-uses.js';
import { errors } from '../lib/errors/errors.js';
import { allows, allowsSkill, allowsSkillRef, type NamedScope, type Principal } from '../lib/keys.js';
import type { Registry } from '../activities/registry/registry.js';
import type { ChildRunSnapshot } from '../workflows/run-definition.js';

/** A skill's restricted request options by `<app>.<skill>` (its manifest's `restrictedOptions`). */
export type OptionRules = (skillRef: string) => readonly OptionRule[];

/** The restricted options of the registry's skills. */
export function optionRulesOf(registry: Pick<Registry, 'get'>): OptionRules {
  return (ref) => {
    const [appId = '', skillId = ''] = ref.split('.');
    return registry.get(appId, skillId)?.manifest.restrictedOptions ?? [];
  };
}

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
 * schedule), and holds the restricted scope of every restricted option value they write
 * literally. Applied when a definition is saved (which authorises its schedule's future runs)
 * and when it is run or its schedule triggered.
 */
export function requirePlanScopes(
  p: Principal,
  plan: Plan,
  children: { skills: readonly string[]; children?: Record<string, ChildRunSnapshot> } | undefined,
  rules: OptionRules,
): Principal {
  requireSkillRefs(p, [...planSkills(plan), ...(children?.skills ?? [])]);
  const missing = literalOptionUses([plan, ...childPlans(children?.children)], rules).filter(
    (use) => !p.scopes.includes(use.scope),
  );
  const first = missing[0];
  if (first) {
    throw errors.forbidden(`A step of this workflow sends an option that needs the "${first.scope}" scope.`, {
      step: first.step,
      path: first.path,
      required_scope: first.scope,
    });
  }
  return p;
}

/** The restricted scopes a plan's literal option values need (granted to its keyless runs). */
export function literalGrants(
  plan: Plan,
  children: Record<string, ChildRunSnapshot> | undefined,
  rules: OptionRules,
): { grants?: string[] } {
  const scopes = [...new Set(literalOptionUses([plan, ...childPlans(children)], rules).map((u) => u.scope))];
  return scopes.length > 0 ? { grants: scopes.sort() } : {};
}

function childPlans(children: Record<string, ChildRunSnapshot> | undefined): Plan[] {
  return Object.values(children ?? {}).flatMap((c) => [c.plan, ...childPlans(c.children)]);
}
