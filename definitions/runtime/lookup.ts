/**
 * Safe value lookup for references. Only own properties are read, so a path can never reach
 * `__proto__`, `constructor`, `prototype` or anything inherited, even in a hand-edited plan.
 */
import { EACH_SEGMENT, type PathSegment, type Reference, type RunScope } from './plan.js';

/** Property names no path may touch, whatever the data holds. */
export const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** An array index as JavaScript spells it: no sign, no leading zero. */
export const CANONICAL_INDEX = /^(?:0|[1-9]\d*)$/;

/** The innermost-last stack of `#each` frames a template is rendering inside. */
export interface EachFrame {
  item: unknown;
  index: number;
  length: number;
}

/** Reads one own property (or array element); anything else is undefined. */
export function ownProperty(value: unknown, segment: PathSegment): unknown {
  if (typeof segment === 'string' && FORBIDDEN_SEGMENTS.has(segment)) return undefined;
  if (Array.isArray(value)) {
    if (segment === 'length') return value.length;
    // A key spelled as a canonical index (`0`, `12`, not `01`) reads an element, as in JavaScript.
    const index =
      typeof segment === 'number' ? segment : CANONICAL_INDEX.test(segment) ? Number(segment) : -1;
    return Number.isInteger(index) && index >= 0 && index < value.length
      ? (value[index] as unknown)
      : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const key = String(segment);
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/** Follows a path; `[]` maps the rest of the path over every element of an array. */
export function followPath(value: unknown, path: readonly PathSegment[], from = 0): unknown {
  let current = value;
  for (let i = from; i < path.length; i++) {
    const segment = path[i] as PathSegment;
    if (segment === EACH_SEGMENT) {
      if (!Array.isArray(current)) return undefined;
      return current.map((element: unknown) => followPath(element, path, i + 1));
    }
    current = ownProperty(current, segment);
    if (current === undefined) return undefined;
  }
  return current;
}

/** Resolves a reference against the run scope and the current `#each` frames. */
export function resolveReference(
  ref: Reference,
  scope: RunScope,
  frames: readonly EachFrame[] = [],
): unknown {
  switch (ref.root) {
    case 'steps':
      return followPath(ownProperty(scope.steps, ref.step), ref.path);
    case 'inputs':
      return followPath(ownProperty(scope.inputs, ref.name), ref.path);
    case 'item': {
      const frame = frames[frames.length - 1];
      return frame ? followPath(frame.item, ref.path) : undefined;
    }
    case 'data': {
      const frame = frames[frames.length - 1];
      if (!frame) return undefined;
      if (ref.name === 'index') return frame.index;
      return ref.name === 'first' ? frame.index === 0 : frame.index === frame.length - 1;
    }
    case 'loop':
      return scope.loop ? followPath(scope.loop.item, ref.path) : undefined;
    case 'loop_index':
      return scope.loop?.index;
    case 'error':
      return scope.error?.[ref.field];
  }
}

/**
 * Template and condition truthiness, as in handlebars: undefined, null, false, 0, NaN, the
 * empty string and the empty array are false; everything else (including `{}`) is true.
 */
export function isTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

/** Deep-copies JSON-shaped data so callers never share mutable state with the plan or scope. */
export function cloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    defineField(out, key, cloneJson((value as Record<string, unknown>)[key]));
  return out;
}

/** Sets an own, enumerable property even when the key is `__proto__`. */
export function defineField(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
