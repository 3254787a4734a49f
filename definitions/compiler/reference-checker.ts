/**
 * Checks references against what exists when the step runs: the steps it can see and their
 * declared workflow output, declared run inputs, the current `for_each` element and the current
 * `#each` element. What a step can see follows its position ({@link visibility}).
 */
import { suggestNames } from '../suggest.js';
import type { Diagnostic } from '../diagnostics.js';
import { FORBIDDEN_SEGMENTS } from '../runtime/lookup.js';
import type { Reference } from '../runtime/plan.js';
import { z } from 'zod';
import { type SchemaShape, type SchemaWalk, walkSchema } from '../schema/schema-path.js';
import type { DocPath, SourceMap } from '../source/source-map.js';

const LIST_SHAPE = z.array(z.unknown());

/**
 * One level of a step's place: the container (`''` for the definition's `steps`, else the id of
 * the `for_each` or `parallel` step holding it), its kind, and the step's index in it.
 */
export interface Slot {
  container: string;
  kind: 'top' | 'for_each' | 'parallel' | 'on_error';
  index: number;
}

/** What one step contributes to the reference checks. */
export interface StepSymbol {
  /** Its place, from the top level down to its own container. */
  position: readonly Slot[];
  /** Its workflow output; 'any' when unknown (a chat step or an unknown skill). */
  output: SchemaShape;
}

/** The names in scope while compiling one step. */
export interface ReferenceScope {
  map: SourceMap;
  diagnostics: Diagnostic[];
  /** Every step of the definition, by id (ids are unique across all levels). */
  steps: ReadonlyMap<string, StepSymbol>;
  /** The place of the step being compiled. */
  position: readonly Slot[];
  /** The shape of the innermost `for_each` element around it; undefined outside a loop. */
  loop?: SchemaShape;
  /** Inside an `on_error` handler (`error.code`, `error.step` exist). */
  handler?: boolean;
  /** Declared run inputs; empty for scheduled definitions. */
  inputs: ReadonlyMap<string, SchemaShape>;
  scheduled: boolean;
}

/** How a step at `target` looks from a step at `current`. */
export type Visibility =
  'visible' | 'self' | 'encloses' | 'later' | 'sibling' | 'inside_loop' | 'inside_handler' | 'handled';

/**
 * Whether the step at `target` has an output the step at `current` may read: it must come
 * before it in a container that holds both. A `parallel` group's inner steps count, outside the
 * group, as the group itself (their outputs exist once it has finished) and are invisible to one
 * another (`sibling`); a `for_each`'s inner steps exist only inside the loop (`inside_loop`:
 * outside, its own output lists them per element); a step never sees itself or a group around it.
 */
export function visibility(target: readonly Slot[], current: readonly Slot[]): Visibility {
  let slots = target;
  for (;;) {
    const depth = slots.length - 1;
    const own = slots[depth]!;
    if (own.kind !== 'parallel') break;
    const mine = current[depth];
    if (mine?.container === own.container) {
      if (mine.index !== own.index) return 'sibling';
      break;
    }
    slots = slots.slice(0, -1);
  }
  const depth = slots.length - 1;
  const own = slots[depth]!;
  const mine = current[depth];
  if (!mine || mine.container !== own.container)
    return own.kind === 'on_error' ? 'inside_handler' : 'inside_loop';
  if (mine.index > own.index) return 'visible';
  if (mine.index < own.index) return 'later';
  if (current.length - 1 === depth) return 'self';
  return current[depth + 1]!.kind === 'on_error' ? 'handled' : 'encloses';
}

const HIDDEN: Record<Exclude<Visibility, 'visible'>, [Diagnostic['code'], string]> = {
  self: ['FORWARD_REFERENCE', "The reference names this step; only earlier steps' outputs exist."],
  later: ['FORWARD_REFERENCE', "The reference names a later step; only earlier steps' outputs exist."],
  encloses: [
    'FORWARD_REFERENCE',
    'The reference names a for_each or parallel step around this one; its output exists only after it.',
  ],
  sibling: [
    'FORWARD_REFERENCE',
    'The reference names a step of the same parallel group; its output exists only after the group.',
  ],
  inside_loop: [
    'STEP_NOT_IN_SCOPE',
    "The reference names a step inside a for_each; outside the loop, read it through the loop's output.",
  ],
  handled: [
    'FORWARD_REFERENCE',
    'The reference names the step this on_error handler handles; it failed, so it has no output.',
  ],
  inside_handler: [
    'STEP_NOT_IN_SCOPE',
    'The reference names a step of an on_error handler; its output exists only inside the handler.',
  ],
};

/** Where in the source a reference sits: the string's path plus an offset inside it. */
export interface ReferenceSite {
  path: DocPath;
  offset?: number;
}

/**
 * Reports every problem with `ref` and returns the walk of its path (for `#each` typing), or
 * undefined when the reference is broken. `item` is the shape of the current `#each` element.
 */
export function checkReference(
  scope: ReferenceScope,
  ref: Reference,
  site: ReferenceSite,
  item?: SchemaShape,
): SchemaWalk | undefined {
  if (ref.root === 'data') return { ok: true, shape: 'any', projected: false };
  if (ref.root === 'error') {
    if (scope.handler) return { ok: true, shape: [z.string()], projected: false };
    return reportAt(scope, site, 'INVALID_REFERENCE', 'error is only available inside an on_error handler.');
  }
  if (ref.root === 'loop_index') {
    if (scope.loop) return { ok: true, shape: [z.number().int().nonnegative()], projected: false };
    return reportAt(scope, site, 'INVALID_REFERENCE', 'index is only available inside a for_each.');
  }
  const names = ref.root === 'steps' ? [ref.step] : ref.root === 'inputs' ? [ref.name] : [];
  if ([...names, ...ref.path].some((s) => typeof s === 'string' && FORBIDDEN_SEGMENTS.has(s))) {
    return reportAt(
      scope,
      site,
      'FORBIDDEN_PROPERTY',
      'The reference touches a forbidden property (__proto__, constructor, prototype).',
    );
  }
  let start: SchemaShape;
  let owner: string;
  let after: string;
  if (ref.root === 'steps') {
    const step = scope.steps.get(ref.step);
    if (!step) {
      reportAt(scope, site, 'UNKNOWN_STEP', 'The reference names a step that does not exist.');
      suggestSteps(scope, ref.step);
      return undefined;
    }
    const seen = visibility(step.position, scope.position);
    if (seen !== 'visible') {
      const [code, message] = HIDDEN[seen];
      return reportAt(scope, site, code, message);
    }
    start = step.output;
    owner = "The step's output";
    after = 'the step id';
  } else if (ref.root === 'inputs') {
    const input = scope.inputs.get(ref.name);
    if (!input) {
      const why = scope.scheduled
        ? 'scheduled definitions have no run inputs'
        : 'declare it under start_when.manual.inputs';
      return reportAt(
        scope,
        site,
        'UNKNOWN_INPUT',
        `The reference names a run input that is not declared (${why}).`,
      );
    }
    start = input;
    owner = 'The run input';
    after = 'the input name';
  } else if (ref.root === 'loop') {
    if (!scope.loop)
      return reportAt(scope, site, 'INVALID_REFERENCE', 'item is only available inside a for_each.');
    start = scope.loop;
    owner = 'The for_each element';
    after = 'item';
  } else {
    if (!item) return reportAt(scope, site, 'INVALID_REFERENCE', 'this is only available inside #each.');
    start = item;
    owner = 'The #each element';
    after = 'this';
  }
  const walk = walkSchema(start, ref.path);
  if (!walk.ok) {
    const code = ref.root === 'inputs' ? 'UNKNOWN_INPUT' : 'UNKNOWN_OUTPUT_FIELD';
    const message = `${owner} has no field at segment ${walk.index + 1} after ${after}; at that point it is ${walk.found}.`;
    return reportAt(scope, site, code, message);
  }
  return walk;
}

/**
 * Reports a problem with a reference at its site. A function, not a closure in checkReference:
 * under tsx (esbuild's keepNames) each closure created per call also costs a defineProperty,
 * a third of the checks' time in a template of 2,000 references.
 */
function reportAt(
  scope: ReferenceScope,
  site: ReferenceSite,
  code: Diagnostic['code'],
  message: string,
): undefined {
  scope.diagnostics.push(scope.map.diagnostic(code, message, site.path, { offset: site.offset }));
  return undefined;
}

/** Unknown-step diagnostics of one compile that get suggestions (the rest only their message). */
const SUGGESTED_PER_COMPILE = 10;
const suggested = new WeakMap<Diagnostic[], number>();

/**
 * Adds to the UNKNOWN_STEP diagnostic just reported the step ids closest to the unknown one (in
 * `suggestions` only: a message never quotes the definition), for the first few of a compile.
 */
function suggestSteps(scope: ReferenceScope, name: string): void {
  const count = suggested.get(scope.diagnostics) ?? 0;
  if (count >= SUGGESTED_PER_COMPILE) return;
  suggested.set(scope.diagnostics, count + 1);
  const suggestions = suggestNames(name, scope.steps.keys());
  const last = scope.diagnostics[scope.diagnostics.length - 1];
  if (last && suggestions.length > 0) last.suggestions = suggestions;
}

/** The walk of a reference's path, without reporting anything; undefined when it is broken. */
export function referenceWalk(
  scope: ReferenceScope,
  ref: Reference,
): Extract<SchemaWalk, { ok: true }> | undefined {
  const start =
    ref.root === 'steps'
      ? scope.steps.get(ref.step)?.output
      : ref.root === 'inputs'
        ? scope.inputs.get(ref.name)
        : ref.root === 'loop'
          ? scope.loop
          : undefined;
  if (!start || !('path' in ref)) return undefined;
  const walk = walkSchema(start, ref.path);
  return walk.ok ? walk : undefined;
}

/**
 * The shape of the value a reference yields, without reporting anything; 'any' when the
 * reference is broken (already reported by {@link checkReference}) or projects with `[]`.
 */
export function referenceShape(scope: ReferenceScope, ref: Reference): SchemaShape {
  if (ref.root === 'loop_index') return [z.number().int().nonnegative()];
  if (ref.root === 'error') return [z.string()];
  if (ref.root !== 'steps' && ref.root !== 'inputs' && ref.root !== 'loop') return 'any';
  const start =
    ref.root === 'steps'
      ? scope.steps.get(ref.step)?.output
      : ref.root === 'inputs'
        ? scope.inputs.get(ref.name)
        : scope.loop;
  if (!start) return 'any';
  const walk = walkSchema(start, ref.path);
  if (!walk.ok) return 'any';
  return walk.projected ? [LIST_SHAPE] : walk.shape;
}
