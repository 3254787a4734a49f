/**
 * Renders compiled templates. Output is chat text, not HTML, so nothing is escaped. The
 * renderer reads no clock and no randomness, and resolves values through own properties only.
 */
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

/** Renders a compiled template against the run scope. */
export function renderTemplate(
  nodes: readonly TemplateNode[],
  scope: RunScope,
  frames: readonly EachFrame[] = [],
): string {
  let out = '';
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
        out += renderTemplate(truthy !== node.negate ? node.then : node.else, scope, frames);
        break;
      }
      case 'each': {
        const list = evaluateValue(node.list, scope, frames);
        if (!Array.isArray(list) || list.length === 0) {
          out += renderTemplate(node.else, scope, frames);
          break;
        }
        list.forEach((item: unknown, index) => {
          out += renderTemplate(node.body, scope, [...frames, { item, index, length: list.length }]);
        });
        break;
      }
    }
  }
  return out;
}
