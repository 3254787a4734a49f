/**
 * What a re-run runs and what it takes over from the run it re-runs (pure; the API's half of
 * re-runs, the workflow's is workflows/rerun.ts). The rules:
 *
 * - The re-run executes the earlier run's plan snapshot (never the definition's current version),
 *   with its run inputs, edited by the request's `inputs` and checked like a run's.
 * - `from_step` is a top-level step; by default the first one that did not end well (failed
 *   without being tolerated or handled, cancelled, or never run); for a run that completed, the
 *   first step.
 * - Every top-level step before `from_step` that completed is reused (its recorded output and
 *   times, no activity, no upstream call, no credit), unless its own inputs changed: it reads a
 *   run input the request changed, or an output of a step that runs again, or the request edits
 *   its input (`step_inputs`). Such a step runs again, and so does every later step that reads
 *   it. A parallel group is reused with all its inner steps, or runs whole.
 * - Every step from `from_step` on runs; when `from_step` is a for_each loop whose inputs did
 *   not change, its elements that completed keep their outputs and only the others run.
 * - `step_inputs` replaces a skill step's whole input (top-level or in a parallel group, not
 *   inside a loop), checked against the skill's input schema.
 */
import type { z } from 'zod';
import {
  allSteps,
  referencesOf,
  type ForEachPlanStep,
  type JsonValue,
  type Plan,
  type PlanStep,
} from '../../definitions/runtime/index.js';
import { issuesFromZod, SkillflowError, type FieldIssue } from '../../lib/errors/skillflow-error.js';
import type { ElementResult } from '../../workflows/loop-elements.js';
import type { StepProgress } from '../../workflows/progress.js';
import type { RerunReuse, ReusedStep } from '../../workflows/rerun.js';
import type { RunDefinitionInput } from '../../workflows/run-definition.js';
import { checkedRunInputs } from './run-inputs.js';

/** What the earlier run left: its start input, final step list and recorded outputs. */
export interface EarlierRun {
  taskId: string;
  input: RunDefinitionInput;
  /** Its steps as they ended (the task view's list). */
  steps: readonly StepProgress[];
  /** Step outputs, by id: a completed run's result, or what a failed or cancelled run recorded. */
  outputs: Readonly<Record<string, unknown>>;
  /** Loops that did not complete: their element results as far as they got. */
  elements: Readonly<Record<string, ElementResult[]>>;
}

export interface RerunRequest {
  from_step?: string | undefined;
  inputs?: Record<string, unknown> | undefined;
  step_inputs?: Record<string, Record<string, unknown>> | undefined;
}

export interface RerunDecision {
  input: RunDefinitionInput;
  fromStep: string;
  /** The top-level steps taken over (in plan order). */
  reusedSteps: string[];
  /** Elements of the `from_step` loop taken over. */
  reusedElements: number;
}

/** The input schema of a skill (`<app>.<skill>`), when it is loaded. */
export type SkillInputOf = (skillRef: string) => z.ZodType | undefined;

const STEP_ID = /^[a-z][a-z0-9_]{0,63}$/;

function invalid(issues: FieldIssue[], details: Record<string, unknown> = {}): SkillflowError {
  return new SkillflowError('INVALID_RERUN', undefined, { issues, ...details });
}

/** Decides the re-run of `earlier` the request asks for, or throws INVALID_RERUN (422). */
export function planRerun(
  earlier: EarlierRun,
  request: RerunRequest,
  skillInput: SkillInputOf,
): RerunDecision {
  const plan = editedPlan(earlier.input.plan, request.step_inputs ?? {}, skillInput);
  const inputs = editedInputs(plan, earlier.input.inputs, request.inputs);
  const top = plan.steps;
  const byId = new Map(earlier.steps.map((s) => [s.id, s]));
  const fromIndex = startingIndex(top, byId, request.from_step);
  const changed = changedInputs(earlier.input.inputs, inputs);
  const edited = new Set(Object.keys(request.step_inputs ?? {}));
  const reruns = new Set<string>();
  const reuse: RerunReuse = { of: earlier.taskId, steps: {} };
  const reusedSteps: string[] = [];
  let reusedElements = 0;
  for (const [index, step] of top.entries()) {
    const own = allSteps([step]).map((s) => s.id);
    const unchanged = inputsUnchanged(step, changed, reruns) && !own.some((id) => edited.has(id));
    const taken = index < fromIndex && unchanged ? takenOver(step, byId, earlier.outputs) : undefined;
    if (taken) {
      Object.assign(reuse.steps, taken);
      reusedSteps.push(step.id);
      continue;
    }
    for (const id of own) reruns.add(id);
    if (index === fromIndex && unchanged && step.kind === 'for_each') {
      const elements = completedElements(step, earlier);
      reusedElements = Object.keys(elements).length;
      if (reusedElements > 0) reuse.elements = { [step.id]: elements };
    }
  }
  const { reuse: _earlierReuse, ...rest } = earlier.input;
  return {
    input: { ...rest, plan, inputs, trigger: 'manual', reuse },
    fromStep: top[fromIndex]!.id,
    reusedSteps,
    reusedElements,
  };
}

/** The run inputs of the re-run: the earlier ones with the request's edits, checked like a run's. */
function editedInputs(
  plan: Plan,
  earlier: Record<string, unknown>,
  edits: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (!edits) return earlier;
  try {
    return checkedRunInputs(plan, { ...earlier, ...edits }, { root: 'inputs' });
  } catch (err) {
    // A bad edit is the re-run's 422 (a too large one stays 413, as for a run).
    if (err instanceof SkillflowError && err.code === 'INVALID_PARAMETER')
      throw invalid((err.details as { issues: FieldIssue[] }).issues);
    throw err;
  }
}

/** The plan with each edited skill step's input replaced by the request's (checked). */
function editedPlan(
  plan: Plan,
  edits: Record<string, Record<string, unknown>>,
  skillInput: SkillInputOf,
): Plan {
  if (Object.keys(edits).length === 0) return plan;
  const copy = structuredClone(plan);
  const editable = new Map(
    [...copy.steps, ...copy.steps.flatMap((s) => (s.kind === 'parallel' ? s.steps : []))].map((s) => [
      s.id,
      s,
    ]),
  );
  const issues: FieldIssue[] = [];
  for (const [id, value] of Object.entries(edits)) {
    const path = STEP_ID.test(id) ? `step_inputs.${id}` : 'step_inputs';
    const step = editable.get(id);
    if (!step || step.kind !== 'skill') {
      issues.push({
        path,
        message: 'Names no skill step of the run (top-level or in a parallel group; not inside a loop).',
      });
      continue;
    }
    const schema = skillInput(step.skill);
    const parsed = schema?.safeParse(value);
    if (!parsed) {
      issues.push({ path, message: "The step's skill is not available." });
      continue;
    }
    if (!parsed.success) {
      for (const issue of issuesFromZod(parsed.error.issues))
        issues.push({ ...issue, path: issue.path ? `${path}.${issue.path}` : path });
      continue;
    }
    step.input = { kind: 'literal', value: parsed.data as JsonValue };
  }
  if (issues.length > 0) throw invalid(issues);
  return copy;
}

/** The index of `from_step` among the top-level steps, or of the default one. */
function startingIndex(
  top: readonly PlanStep[],
  byId: ReadonlyMap<string, StepProgress>,
  fromStep: string | undefined,
): number {
  if (fromStep !== undefined) {
    const index = top.findIndex((s) => s.id === fromStep);
    if (index < 0)
      throw invalid([{ path: 'from_step', message: 'Names no top-level step of the run.' }], {
        steps: top.map((s) => s.id),
      });
    return index;
  }
  const first = top.findIndex((s) => !endedWell(s, byId.get(s.id)));
  return first < 0 ? 0 : first;
}

/** A step that needs no re-run: it completed or was skipped, or its failure was tolerated or handled. */
function endedWell(step: PlanStep, state: StepProgress | undefined): boolean {
  if (!state) return false;
  if (state.status === 'completed' || state.status === 'skipped' || state.status === 'reused') return true;
  return state.status === 'failed' && (state.handled === true || step.continueOnError === true);
}

/** The run inputs whose values differ (added, removed or changed). */
function changedInputs(before: Record<string, unknown>, after: Record<string, unknown>): Set<string> {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return new Set(
    [...names].filter(
      (n) =>
        Object.hasOwn(before, n) !== Object.hasOwn(after, n) ||
        JSON.stringify(before[n]) !== JSON.stringify(after[n]),
    ),
  );
}

/** Whether nothing a step reads changed: no edited run input, no output of a step that runs again. */
function inputsUnchanged(step: PlanStep, changed: ReadonlySet<string>, reruns: ReadonlySet<string>): boolean {
  const read = referencesOf([step]);
  return ![...read.inputs].some((n) => changed.has(n)) && ![...read.steps].some((id) => reruns.has(id));
}

/**
 * The recorded outputs a step is taken over with (a parallel group's inner steps too), or
 * undefined when the step did not complete or its output was not recorded.
 */
function takenOver(
  step: PlanStep,
  byId: ReadonlyMap<string, StepProgress>,
  outputs: Readonly<Record<string, unknown>>,
): Record<string, ReusedStep> | undefined {
  const state = byId.get(step.id);
  if (state?.status !== 'completed' && state?.status !== 'reused') return undefined;
  if (!Object.hasOwn(outputs, step.id)) return undefined;
  const taken: Record<string, ReusedStep> = {
    [step.id]: { output: outputs[step.id], started_at: state.started_at, finished_at: state.finished_at },
  };
  if (step.kind !== 'parallel') return taken;
  for (const inner of step.steps) {
    const own = takenOver(inner, byId, outputs);
    if (!own) return undefined;
    Object.assign(taken, own);
  }
  return taken;
}

/**
 * The outputs of a loop's elements that completed in the earlier run, by index. An element whose
 * outputs were cut down (the run's loop output budget) or that holds none runs again.
 */
function completedElements(
  step: ForEachPlanStep,
  earlier: EarlierRun,
): Record<string, Record<string, unknown>> {
  const output = earlier.outputs[step.id] as { results?: ElementResult[] } | undefined;
  const results = earlier.elements[step.id] ?? output?.results ?? [];
  const kept: Record<string, Record<string, unknown>> = {};
  for (const result of results)
    if (result.status === 'completed' && Object.keys(result.outputs).length > 0)
      kept[String(result.index)] = result.outputs;
  return kept;
}
