/**
 * Restricted request options: a skill may declare request-item values that only approved client
 * flows may send (its manifest's `restrictedOptions`, e.g. icon search's `license_policy: all`
 * needs `icons:all-licenses`). A call that sends one without the scope is refused with 403
 * FORBIDDEN naming the failing path and the scope, never silently downgraded: the API checks a
 * direct call against its key, and the skill activity checks the input it finally runs against
 * the scopes its run was granted (a workflow step's input may come from references).
 */
import { errors } from '../../lib/errors/errors.js';
import type { SkillManifest } from './manifest.js';

export type RestrictedOption = SkillManifest['restrictedOptions'][number];

/** One use of a restricted value in a call's input. */
export interface RestrictedUse {
  /** `requests[<i>].<field>`. */
  path: string;
  scope: RestrictedOption['scope'];
}

/** Every request item of `input` (validated or not) that sends a restricted value. */
export function restrictedUses(rules: readonly RestrictedOption[], input: unknown): RestrictedUse[] {
  if (rules.length === 0) return [];
  const requests = (input as { requests?: unknown } | null | undefined)?.requests;
  if (!Array.isArray(requests)) return [];
  const uses: RestrictedUse[] = [];
  requests.forEach((item: unknown, index) => {
    if (item === null || typeof item !== 'object') return;
    for (const rule of rules) {
      if ((item as Record<string, unknown>)[rule.field] === rule.value)
        uses.push({ path: `requests[${index}].${rule.field}`, scope: rule.scope });
    }
  });
  return uses;
}

/**
 * Throws 403 FORBIDDEN for the first restricted value in `input` whose scope is not in
 * `granted`; details name its path and the scope (the value is one of our own option names).
 */
export function refuseUngranted(
  manifest: Pick<SkillManifest, 'restrictedOptions'>,
  input: unknown,
  granted: readonly string[],
): void {
  const missing = restrictedUses(manifest.restrictedOptions, input).filter((u) => !granted.includes(u.scope));
  const first = missing[0];
  if (!first) return;
  const rule = manifest.restrictedOptions.find((r) => first.path.endsWith(`.${r.field}`))!;
  throw errors.forbidden(
    `${rule.field}: ${rule.value} is for approved client flows: it needs the "${first.scope}" scope.`,
    { path: first.path, required_scope: first.scope },
  );
}
