/**
 * Checks the inputs a manual run was started with against the trigger's declarations and fills
 * in defaults. Pure, so the API and the workflow can both use it.
 */
import { cloneJson, defineField } from './lookup.js';
import { NAME_PATTERN } from './names.js';
import type { RunInputSpec, RunInputType } from './plan.js';

/**
 * One problem with a run's inputs. `path` is `inputs.<name>` for a key of the input-name form
 * and `inputs` for any other key; the message never repeats a key. `input` names an undeclared
 * key, and only when it has the input-name form.
 */
export interface RunInputIssue {
  path: string;
  message: string;
  input?: string;
}

/** The message of a key the trigger does not declare. */
export const UNDECLARED_INPUT = 'holds an input the definition does not declare';

/** Where a provided key is: `inputs.<name>` when it has the input-name form, else `inputs`. */
export function runInputPath(name: string): string {
  return NAME_PATTERN.test(name) ? `inputs.${name}` : 'inputs';
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

/** Characters of JSON a run's inputs may take in total (a child run's too). */
export const MAX_RUN_INPUT_CHARS = 64 * 1024;

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
      return {
        path: runInputPath(name),
        message: `takes the run inputs past ${maxChars} characters of JSON in total`,
      };
  }
  return undefined;
}

/**
 * Validates `provided` against `specs`: unknown names, missing required inputs and wrong types
 * are issues (at `<root>.<name>`); an omitted optional input takes its default (or stays absent).
 */
export function applyRunInputs(
  specs: Readonly<Record<string, RunInputSpec>>,
  provided: Readonly<Record<string, unknown>> = {},
  root = 'inputs',
): RunInputsResult {
  const issues: RunInputIssue[] = [];
  const inputs: Record<string, unknown> = {};
  const undeclared = Object.keys(provided).filter((name) => !Object.hasOwn(specs, name));
  for (const name of undeclared.filter((n) => NAME_PATTERN.test(n)))
    issues.push({ path: root, message: UNDECLARED_INPUT, input: name });
  // Keys of another form are arbitrary user text: one issue, without them.
  if (undeclared.some((n) => !NAME_PATTERN.test(n))) issues.push({ path: root, message: UNDECLARED_INPUT });
  for (const [name, spec] of Object.entries(specs)) {
    const value = Object.hasOwn(provided, name) ? provided[name] : undefined;
    if (value === undefined) {
      if (spec.default !== undefined) defineField(inputs, name, cloneJson(spec.default));
      else if (spec.required) issues.push({ path: `${root}.${name}`, message: 'is required' });
      continue;
    }
    if (!matchesRunInputType(spec.type, value)) {
      issues.push({ path: `${root}.${name}`, message: `must be of type ${spec.type}` });
      continue;
    }
    defineField(inputs, name, cloneJson(value));
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, inputs };
}
