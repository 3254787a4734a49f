/**
 * Renders compiled templates. Output is chat text, not HTML, so nothing is escaped. The
 * renderer reads no clock and no randomness, and resolves values through own properties only.
 * Every step is charged to the render budget before or while it is done, so a render that would
 * pass the budget stops at once.
 */
import { JsonBoundError, boundedJson } from './bounded-json.js';
import { RenderBudget, TemplateBudgetError } from './budget.js';
import { type EachFrame, isTruthy, resolveReference } from './lookup.js';
import type { HelperName, RunScope, TemplateNode, ValueExpr } from './plan.js';

/**
 * How a value appears inside text: strings as written, numbers and booleans via `String`,
 * null and undefined as the empty string, objects and arrays as compact JSON. With a budget, an
 * object's JSON is charged to it and may not pass `max` characters.
 */
export function toText(value: unknown, budget?: RenderBudget, max = Infinity): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object') return serialise(value, budget, max) ?? '';
  return '';
}

/** Compact JSON, charged to the budget and bounded by what is left of it (and by `max`). */
function serialise(value: unknown, budget: RenderBudget | undefined, max = Infinity): string | undefined {
  if (!budget) return JSON.stringify(value);
  const left = budget.valueLeft();
  let text: string | undefined;
  try {
    text = boundedJson(value, Math.min(left, max));
  } catch (err) {
    if (!(err instanceof JsonBoundError)) throw err;
    throw left <= max
      ? new TemplateBudgetError('value_characters', budget.limits.maxValueChars)
      : new TemplateBudgetError('characters', budget.limits.maxChars);
  }
  budget.chargeValue(text?.length ?? 0);
  return text;
}

/**
 * Evaluates a template value: a reference, a literal or one of the allowed helpers. `depth` is
 * the number of helper calls enclosing `expr`.
 */
export function evaluateValue(
  expr: ValueExpr,
  scope: RunScope,
  frames: readonly EachFrame[] = [],
  budget: RenderBudget = new RenderBudget(),
  depth = 0,
): unknown {
  budget.step();
  switch (expr.kind) {
    case 'ref':
      return resolveReference(expr.ref, scope, frames);
    case 'literal':
      return expr.value;
    case 'helper': {
      budget.enter(depth + 1);
      const args = expr.args.map((arg) => evaluateValue(arg, scope, frames, budget, depth + 1));
      return applyHelper(expr.name, args, budget);
    }
  }
}

function applyHelper(name: HelperName, args: unknown[], budget: RenderBudget): unknown {
  const [first, second] = args;
  switch (name) {
    case 'len':
      if (Array.isArray(first) || typeof first === 'string') return first.length;
      if (typeof first === 'object' && first !== null) {
        const keys = Object.keys(first).length;
        budget.chargeValue(keys);
        return keys;
      }
      return 0;
    case 'json':
      return serialise(first, budget) ?? 'null';
    case 'default':
      return first === undefined || first === null || first === '' ? second : first;
    default:
      return undefined;
  }
}

/**
 * Renders a compiled template against the run scope. Throws TemplateBudgetError when the render
 * exceeds its budget (iterations, output, steps, intermediate values or depth), before doing the
 * excess work. A budget may be shared by several renders of one step.
 */
export function renderTemplate(
  nodes: readonly TemplateNode[],
  scope: RunScope,
  budget: RenderBudget = new RenderBudget(),
): string {
  try {
    return renderNodes(nodes, scope, [], budget, '');
  } catch (err) {
    // The budget bounds every step; should the engine still run out of stack or string space,
    // that is the same failure: the template needs more than a render may use.
    if (err instanceof RangeError) throw new TemplateBudgetError('depth', budget.limits.maxDepth);
    throw err;
  }
}

function renderNodes(
  nodes: readonly TemplateNode[],
  scope: RunScope,
  frames: readonly EachFrame[],
  budget: RenderBudget,
  prefix: string,
): string {
  let out = prefix;
  for (const node of nodes) {
    budget.step();
    switch (node.kind) {
      case 'text':
        out += node.text;
        break;
      case 'value':
        out += toText(evaluateValue(node.expr, scope, frames, budget), budget, budget.outputLeft(out.length));
        break;
      case 'if': {
        const truthy = isTruthy(evaluateValue(node.cond, scope, frames, budget));
        out = renderNodes(truthy !== node.negate ? node.then : node.else, scope, frames, budget, out);
        break;
      }
      case 'each': {
        const list = evaluateValue(node.list, scope, frames, budget);
        if (!Array.isArray(list) || list.length === 0) {
          out = renderNodes(node.else, scope, frames, budget, out);
          break;
        }
        for (const [index, item] of (list as unknown[]).entries()) {
          budget.iterate();
          out = renderNodes(node.body, scope, [...frames, { item, index, length: list.length }], budget, out);
        }
        break;
      }
    }
    budget.output(out.length);
  }
  return out;
}
