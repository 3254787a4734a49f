/**
 * Restricted option values a plan writes literally in its skill steps' inputs (a request item's
 * field set to a constant, e.g. `license_policy: all`): what the key that saves or runs the
 * definition must be scoped for. A value that comes from a reference is only known at run time;
 * the skill activity checks it then against the scopes the run was granted.
 */
import { allSteps, type InputTemplate, type JsonValue, type Plan } from './plan.js';

/** One restricted value of a skill's request items (a skill manifest's `restrictedOptions`). */
export interface OptionRule {
  field: string;
  value: string;
  scope: string;
}

/** A literal use: the step, the path in its input and the scope it needs. */
export interface LiteralOptionUse {
  step: string;
  path: string;
  scope: string;
}

/** Every literal restricted value in the skill steps of `plans`, at any depth. */
export function literalOptionUses(
  plans: readonly Plan[],
  rulesOf: (skillRef: string) => readonly OptionRule[],
): LiteralOptionUse[] {
  const uses: LiteralOptionUse[] = [];
  for (const plan of plans) {
    for (const step of allSteps(plan.steps)) {
      if (step.kind !== 'skill') continue;
      const rules = rulesOf(step.skill);
      if (rules.length === 0) continue;
      literalItems(step.input).forEach((item, index) => {
        for (const rule of rules) {
          if (item?.[rule.field] === rule.value)
            uses.push({ step: step.id, path: `requests[${index}].${rule.field}`, scope: rule.scope });
        }
      });
    }
  }
  return uses;
}

type LiteralFields = Record<string, JsonValue | undefined> | undefined;

/** The request items of an input template, each as its literally written fields. */
function literalItems(input: InputTemplate): LiteralFields[] {
  const requests = fieldOf(input, 'requests');
  if (!requests) return [];
  if (requests.kind === 'literal') return Array.isArray(requests.value) ? requests.value.map(asFields) : [];
  if (requests.kind !== 'array') return [];
  return requests.items.map((item) => {
    if (item.kind === 'literal') return asFields(item.value);
    if (item.kind !== 'object') return undefined;
    const fields: Record<string, JsonValue> = {};
    for (const f of item.fields) if (f.value.kind === 'literal') fields[f.key] = f.value.value;
    return fields;
  });
}

function fieldOf(input: InputTemplate, key: string): InputTemplate | undefined {
  if (input.kind === 'object') return input.fields.find((f) => f.key === key)?.value;
  if (input.kind === 'literal') {
    const value = asFields(input.value)?.[key];
    return value === undefined ? undefined : { kind: 'literal', value };
  }
  return undefined;
}

function asFields(value: JsonValue): LiteralFields {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}
