/**
 * The render budget: how much work one template render may do. The interpreter workflow renders
 * templates inside a workflow task, so unbounded work (a large `#each`, a `json` of a large value
 * inside a loop, `json` nested inside `json`) would hold the task, and the worker thread, for as
 * long as it runs. Every evaluation step is charged before or while it is done; exceeding any
 * part of the budget throws {@link TemplateBudgetError}, which the workflow turns into a
 * non-retryable step failure with code `TEMPLATE_TOO_LARGE`.
 */

/** The numbers of a render budget. */
export interface RenderLimits {
  maxIterations: number;
  maxChars: number;
  maxSteps: number;
  maxValueChars: number;
  maxDepth: number;
}

/** Limits of one render (documented in docs/workflow-language.md, "Limits"). */
export const RENDER_BUDGET: Readonly<RenderLimits> = {
  /** `#each` iterations in one render, summed over every loop and nesting level. */
  maxIterations: 10_000,
  /** Characters of rendered output. */
  maxChars: 128 * 1024,
  /** Evaluation steps: every node rendered, reference read, literal, helper call and condition. */
  maxSteps: 100_000,
  /**
   * Characters of intermediate values, summed over the render: each `json` result, each object
   * or list turned into text, each key counted by `len`.
   */
  maxValueChars: 1024 * 1024,
  /** Helper calls nested inside one another (`len (json (json x))` is 3). */
  maxDepth: 16,
};

/** Which part of the budget ran out. */
export type BudgetLimit = 'iterations' | 'characters' | 'steps' | 'value_characters' | 'depth';

/** Thrown when a render exceeds {@link RENDER_BUDGET}; carries no rendered text. */
export class TemplateBudgetError extends Error {
  readonly code = 'TEMPLATE_TOO_LARGE';

  constructor(
    readonly limit: BudgetLimit,
    readonly max: number,
  ) {
    super('The template renders more than the budget allows.');
    this.name = 'TemplateBudgetError';
  }
}

/** The remaining budget of one render; counts down as the renderer works. */
export class RenderBudget {
  private iterations = 0;
  private steps = 0;
  private valueChars = 0;

  constructor(readonly limits: Readonly<RenderLimits> = RENDER_BUDGET) {}

  /** Counts one `#each` iteration. */
  iterate(): void {
    this.iterations += 1;
    if (this.iterations > this.limits.maxIterations)
      throw new TemplateBudgetError('iterations', this.limits.maxIterations);
  }

  /** Checks the output length so far. */
  output(length: number): void {
    if (length > this.limits.maxChars) throw new TemplateBudgetError('characters', this.limits.maxChars);
  }

  /** Characters the output may still grow by, given its length so far. */
  outputLeft(length: number): number {
    return Math.max(0, this.limits.maxChars - length);
  }

  /** Counts one evaluation step. */
  step(): void {
    this.steps += 1;
    if (this.steps > this.limits.maxSteps) throw new TemplateBudgetError('steps', this.limits.maxSteps);
  }

  /** Checks the nesting depth of the helper call or value being entered. */
  enter(depth: number): void {
    if (depth > this.limits.maxDepth) throw new TemplateBudgetError('depth', this.limits.maxDepth);
  }

  /** Charges characters of an intermediate value. */
  chargeValue(chars: number): void {
    this.valueChars += chars;
    if (this.valueChars > this.limits.maxValueChars)
      throw new TemplateBudgetError('value_characters', this.limits.maxValueChars);
  }

  /** Characters of intermediate values still allowed. */
  valueLeft(): number {
    return Math.max(0, this.limits.maxValueChars - this.valueChars);
  }
}
