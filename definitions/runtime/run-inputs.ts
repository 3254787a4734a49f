/**
 * Checks the inputs a manual run was started with against the trigger's declarations and fills
 * in defaults. Pure, so the API and the workflow can both use it.
 */
import { cloneJson, defineField } from './lookup.js';
import type { RunInputSpec, RunInputType } from './plan.js';

/** One problem with a run's inputs; `path` is the input name, which the message never repeats. */
export interface RunInputIssue {
  path: string;
  message: string;
}

/** The checked inputs, or every problem found. */
export type RunInputsResult =
  { ok: true; inputs: Record<string, unknown> } | { ok: false; issues: RunInputIssue[] };

/** Whether a value has one of the declared run input types. */
export function matchesRunInputType(type: RunInputType, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isSafeInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

/**
 * The input that takes the run's inputs past `maxChars` characters of JSON in total, or
 * undefined when they fit. Checked before {@link applyRunInputs}, so an oversized run never
 * reaches the workflow.
 */
export function oversizedRunInput(
  provided: Readonly<Record<string, unknown>>,
  maxChars: number,
): RunInputIssue | undefined {
  let total = 0;
  for (const name of Object.keys(provided)) {
    total += name.length + (JSON.stringify(provided[name]) ?? '').length;
    if (total > maxChars)
      return { path: name, message: `takes the run inputs past ${maxChars} characters of JSON in total` };
  }
  return undefined;
}

/**
 * Validates `provided` against `specs`: unknown names, missing required inputs and wrong types
 * are issues; an omitted optional input takes its default (or stays absent).
 */
export function applyRunInputs(
  specs: Readonly<Record<string, RunInputSpec>>,
  provided: Readonly<Record<string, unknown>> = {},
): RunInputsResult {
  const issues: RunInputIssue[] = [];
  const inputs: Record<string, unknown> = {};
  for (const name of Object.keys(provided)) {
    if (!Object.hasOwn(specs, name)) issues.push({ path: name, message: 'is not a declared run input' });
  }
  for (const [name, spec] of Object.entries(specs)) {
    const value = Object.hasOwn(provided, name) ? provided[name] : undefined;
    if (value === undefined) {
      if (spec.default !== undefined) defineField(inputs, name, cloneJson(spec.default));
      else if (spec.required) issues.push({ path: name, message: 'is required' });
      continue;
    }
    if (!matchesRunInputType(spec.type, value)) {
      issues.push({ path: name, message: `must be of type ${spec.type}` });
      continue;
    }
    defineField(inputs, name, cloneJson(value));
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, inputs };
}
