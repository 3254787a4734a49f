/**
 * Renders compiled templates. Output is chat text, not HTML, so nothing is escaped. The
 * renderer reads no clock and no randomness, and resolves values through own properties only.
 */
import { RenderBudget } from './budget.js';
import { type EachFrame, isTruthy, resolveReference } from './lookup.js';
import type { RunScope, TemplateNode, ValueExpr } from './plan.js';

/**
 * How a value appears inside text: strings as written, numbers and booleans via `String`,
 * null and undefined as the empty string, objects and arrays as compact JSON.
 */
export function toText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object') return JSON.stringify(value) ?? '';
  return '';
}

/** Evaluates a template value: a reference, a literal or one of the allowed helpers. */
export function evaluateValue(expr: ValueExpr, scope: RunScope, frames: readonly EachFrame[] = []): unknown {
  switch (expr.kind) {
    case 'ref':
      return resolveReference(expr.ref, scope, frames);
    case 'literal':
      return expr.value;
    case 'helper': {
      const args = expr.args.map((arg) => evaluateValue(arg, scope, frames));
      return applyHelper(expr.name, args);
    }
  }
}

function applyHelper(name: string, args: unknown[]): unknown {
  const [first, second] = args;
  switch (name) {
    case 'len':
      if (Array.isArray(first) || typeof first === 'string') return first.length;
      if (typeof first === 'object' && first !== null) return Object.keys(first).length;
      return 0;
    case 'json':
      return first === undefined ? 'null' : JSON.stringify(first);
    case 'default':
      return first === undefined || first === null || first === '' ? second : first;
    default:
      return undefined;
  }
}

/**
 * Renders a compiled template against the run scope. Throws TemplateBudgetError when the render
 * exceeds its budget (iterations or output size), before doing the excess work.
 */
export function renderTemplate(
  nodes: readonly TemplateNode[],
  scope: RunScope,
  budget: RenderBudget = new RenderBudget(),
): string {
  return renderNodes(nodes, scope, [], budget, '');
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
    switch (node.kind) {
      case 'text':
        out += node.text;
        break;
      case 'value':
        out += toText(evaluateValue(node.expr, scope, frames));
        break;
      case 'if': {
        const truthy = isTruthy(evaluateValue(node.cond, scope, frames));
        out = renderNodes(truthy !== node.negate ? node.then : node.else, scope, frames, budget, out);
        break;
      }
      case 'each': {
        const list = evaluateValue(node.list, scope, frames);
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
