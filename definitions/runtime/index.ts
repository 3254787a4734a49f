/**
 * The pure runtime of the workflow language: plan types and the evaluators the interpreter
 * workflow calls. No Node built-ins, clock, randomness or I/O may enter this folder.
 */
export * from './plan.js';
export { FORBIDDEN_SEGMENTS, followPath, isTruthy, resolveReference, type EachFrame } from './lookup.js';
export { renderTemplate, evaluateValue, toText } from './render-template.js';
export { RENDER_BUDGET, RenderBudget, TemplateBudgetError, type BudgetLimit } from './budget.js';
export { resolveInput } from './resolve-input.js';
export { evaluateCondition } from './evaluate-condition.js';
export { MAX_WAIT_MS, parseInstant, waitUntil, type WaitProblem } from './wait.js';
export {
  applyRunInputs,
  matchesRunInputType,
  MAX_RUN_INPUT_CHARS,
  oversizedRunInput,
  UNDECLARED_INPUT,
  type RunInputIssue,
  type RunInputsResult,
} from './run-inputs.js';
export { referencesOf, pick, type ReadSet } from './references.js';
export { cutText } from './cut-text.js';
export * from './event-match.js';
