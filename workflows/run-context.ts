/** What every level of a run's steps shares while the interpreter walks them. */
import type { PlanStep, RunScope } from '../definitions/runtime/index.js';
import type { ActivityPolicy } from '../activities/policy.js';
import type { StepError, StepProgress } from './progress.js';
import type { ChildRunSnapshot } from './run-definition.js';
import type { Approvals } from './approvals.js';
import type { EventWaits } from './event-waits.js';
import type { ElementResult } from './loop-elements.js';
import type { RerunReuse } from './rerun.js';
import type { RunSlots } from './run-slots.js';

/** The facts of a run every step needs (a loop batch's child workflow receives them too). */
export interface RunFacts {
  definitionId: string;
  definitionVersion: number;
  ownerId: string;
  /** The run's task id (its root workflow id): chat messages and decisions are keyed by it. */
  taskId: string;
  /** Activity options per step id, from the policy module at start time. */
  policies: Record<string, ActivityPolicy>;
  /** The children of its `use_workflow` steps, resolved at start. */
  children?: Record<string, ChildRunSnapshot>;
  /** The restricted scopes the run was granted; its skill steps and child runs get them. */
  grants?: string[];
}

export interface RunContext {
  facts: RunFacts;
  /**
   * Where the steps run: '' at the top level, `<loop id>[<index>].` inside a loop element (so
   * a chat step in a loop delivers one message per element, each with its own idempotency key).
   */
  prefix: string;
  /** The progress entry a step's state changes go to (a throwaway one inside a loop element). */
  stateOf(step: PlanStep): StepProgress;
  /** A step state change happened (a memo write only for runs from before the query patch). */
  publish(): void;
  /** Workflow time, deterministic on replay. */
  now(): string;
  /** The id of the next child workflow this workflow starts (deterministic: a counter). */
  childId(): string;
  /** Result characters left to the run's loops (loop-elements.ts), shared by all of them. */
  budget: { left: number };
  /** The run's approvals (absent in a loop batch: no approval runs inside a loop). */
  approvals?: Approvals;
  /** The run's event waits (absent in a loop batch: no event wait runs inside a loop). */
  events?: EventWaits;
  /** A re-run: the steps it takes over from the earlier run instead of running them. */
  reuse?: RerunReuse;
  /** The top-level loops' element results so far (recorded for re-runs if the run fails). */
  loops?: Map<string, ElementResult[]>;
  /** Flow control: the run's slot, taken around every step that is not a wait (run-slots.ts). */
  slots?: RunSlots;
}

/** A list of steps that failed: the step, its error, and the fail step that ended it, if one did. */
export interface SequenceFailure {
  step: string;
  error: StepError;
  /** The innermost step that failed, when it is not `step` (a step inside a loop or group). */
  origin?: string;
  /** The id of the `fail` step whose code and message this is (at any depth). */
  ended?: string;
}

/** Runs a list of steps (sequence.ts), handed to the group runners to avoid an import cycle. */
export type RunSteps = (
  steps: readonly PlanStep[],
  scope: RunScope,
  ctx: RunContext,
) => Promise<SequenceFailure | undefined>;

/**
 * Thrown by a loop or group whose inner steps failed: the sequence records it as the group
 * step's error and keeps the inner failure (a fail step inside keeps its author's code).
 */
export class GroupFailed extends Error {
  constructor(readonly failure: SequenceFailure) {
    super(failure.error.message);
    this.name = 'GroupFailed';
  }
}

/** How a failed run's message begins; a parent's use_workflow step reports the rest. */
export const STEP_FAILED_PREFIX = 'A step failed: ';
