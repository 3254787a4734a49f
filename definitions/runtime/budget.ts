/**
 * The render budget: how much work one template render may do. The interpreter workflow renders
 * templates inside a workflow task, so an unbounded `#each` would hold the task (and the worker
 * thread) for as long as it runs. Exceeding the budget throws {@link TemplateBudgetError}, which
 * the workflow turns into a non-retryable step failure with code `TEMPLATE_TOO_LARGE`.
 */

/** The two numbers of a render budget. */
export interface RenderLimits {
  maxIterations: number;
  maxChars: number;
}

/** Limits of one render (documented in docs/workflow-language.md, "Limits"). */
export const RENDER_BUDGET: Readonly<RenderLimits> = {
  /** `#each` iterations in one render, summed over every loop and nesting level. */
  maxIterations: 10_000,
  /** Characters of rendered output. */
  maxChars: 128 * 1024,
};

/** Which part of the budget ran out. */
export type BudgetLimit = 'iterations' | 'characters';

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

  constructor(private readonly limits: Readonly<RenderLimits> = RENDER_BUDGET) {}

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
}
