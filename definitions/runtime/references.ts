/**
 * The run inputs and step outputs a list of plan steps reads: every `inputs` and `steps`
 * reference anywhere in them (inputs, templates, conditions, nested steps). A loop batch's child
 * workflow receives only these, so its start carries no more of the run than it needs. Pure.
 */
import { defineField } from './lookup.js';
import type { PlanStep } from './plan.js';

export interface ReadSet {
  inputs: Set<string>;
  steps: Set<string>;
}

export function referencesOf(steps: readonly PlanStep[]): ReadSet {
  const read: ReadSet = { inputs: new Set(), steps: new Set() };
  const pending: unknown[] = [steps];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) {
      pending.push(...(node as unknown[]));
      continue;
    }
    if (!node || typeof node !== 'object') continue;
    const record = node as Record<string, unknown>;
    // A literal subtree holds the author's data, never a reference.
    if (record.kind === 'literal') continue;
    if (record.root === 'steps' && typeof record.step === 'string') read.steps.add(record.step);
    else if (record.root === 'inputs' && typeof record.name === 'string') read.inputs.add(record.name);
    for (const value of Object.values(record)) if (value && typeof value === 'object') pending.push(value);
  }
  return read;
}

/** The entries of `record` whose keys are in `keys` (own properties only). */
export function pick(record: Record<string, unknown>, keys: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (Object.hasOwn(record, key)) defineField(out, key, record[key]);
  return out;
}
