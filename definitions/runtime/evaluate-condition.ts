/** Evaluates compiled `if` predicates (grammar in docs/workflow-language.md). */
import { isTruthy, resolveReference } from './lookup.js';
import type { CompareOp, ConditionNode, RunScope } from './plan.js';

/** Decides whether a step runs. */
export function evaluateCondition(node: ConditionNode, scope: RunScope): boolean {
  return isTruthy(evaluate(node, scope));
}

function evaluate(node: ConditionNode, scope: RunScope): unknown {
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'ref':
      return resolveReference(node.ref, scope);
    case 'not':
      return !isTruthy(evaluate(node.operand, scope));
    case 'and':
      return isTruthy(evaluate(node.left, scope)) && isTruthy(evaluate(node.right, scope));
    case 'or':
      return isTruthy(evaluate(node.left, scope)) || isTruthy(evaluate(node.right, scope));
    case 'compare':
      return compare(node.op, evaluate(node.left, scope), evaluate(node.right, scope));
  }
}

/**
 * `==` and `!=` compare without coercion (deep for lists and objects; a missing value equals
 * `null`). Ordering operators need two numbers or two strings; any other pair is false.
 */
function compare(op: CompareOp, left: unknown, right: unknown): boolean {
  if (op === '==') return deepEqual(left ?? null, right ?? null);
  if (op === '!=') return !deepEqual(left ?? null, right ?? null);
  const comparable =
    (typeof left === 'number' && typeof right === 'number') ||
    (typeof left === 'string' && typeof right === 'string');
  if (!comparable) return false;
  const [a, b] = [left, right] as [number | string, number | string];
  switch (op) {
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => deepEqual(item ?? null, b[i] ?? null));
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every(
    (key) =>
      Object.hasOwn(b, key) &&
      deepEqual((a as Record<string, unknown>)[key] ?? null, (b as Record<string, unknown>)[key] ?? null),
  );
}
