/** What every level of a run's steps shares while the interpreter walks them. */
import type { PlanStep, RunScope } from '../definitions/runtime/index.js';
import type { RunDefinitionInput } from './run-definition.js';
import type { StepError, StepProgress } from './progress.js';

export interface RunContext {
  args: RunDefinitionInput;
  /** The progress entry a step's state changes go to (a throwaway one inside a loop element). */
  stateOf(step: PlanStep): StepProgress;
  /** A step state change happened (a memo write only for runs from before the query patch). */
  publish(): void;
  /** Workflow time, deterministic on replay. */
  now(): string;
}

/** Runs a list of steps (sequence.ts), handed to the group runners to avoid an import cycle. */
export type RunSteps = (
  steps: readonly PlanStep[],
  scope: RunScope,
  ctx: RunContext,
) => Promise<{ step: PlanStep; error: StepError } | undefined>;
