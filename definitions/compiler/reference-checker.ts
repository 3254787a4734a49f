/**
 * Checks references against what exists when the step runs: earlier steps and their declared
 * workflow output, declared run inputs, and the current `#each` element.
 */
import type { Diagnostic } from '../diagnostics.js';
import { FORBIDDEN_SEGMENTS } from '../runtime/lookup.js';
import type { Reference } from '../runtime/plan.js';
import { z } from 'zod';
import { type SchemaShape, type SchemaWalk, walkSchema } from '../schema/schema-path.js';
import type { DocPath, SourceMap } from '../source/source-map.js';

const LIST_SHAPE = z.array(z.unknown());

/** What one step contributes to the reference checks. */
export interface StepSymbol {
  index: number;
  /** Its workflow output; 'any' when unknown (a chat step or an unknown skill). */
  output: SchemaShape;
}

/** The names in scope while compiling one step. */
export interface ReferenceScope {
  map: SourceMap;
  diagnostics: Diagnostic[];
  /** Every step of the definition, by id. */
  steps: ReadonlyMap<string, StepSymbol>;
  /** Index of the step being compiled. */
  currentIndex: number;
  /** Declared run inputs; empty for scheduled definitions. */
  inputs: ReadonlyMap<string, SchemaShape>;
  scheduled: boolean;
}

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
    if (!step)
      return reportAt(scope, site, 'UNKNOWN_STEP', 'The reference names a step that does not exist.');
    if (step.index >= scope.currentIndex) {
      const which = step.index === scope.currentIndex ? 'this step' : 'a later step';
      return reportAt(
        scope,
        site,
        'FORWARD_REFERENCE',
        `The reference names ${which}; only earlier steps' outputs exist.`,
      );
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

/**
 * The shape of the value a reference yields, without reporting anything; 'any' when the
 * reference is broken (already reported by {@link checkReference}) or projects with `[]`.
 */
export function referenceShape(scope: ReferenceScope, ref: Reference): SchemaShape {
  if (ref.root !== 'steps' && ref.root !== 'inputs') return 'any';
  const start = ref.root === 'steps' ? scope.steps.get(ref.step)?.output : scope.inputs.get(ref.name);
  if (!start) return 'any';
  const walk = walkSchema(start, ref.path);
  if (!walk.ok) return 'any';
  return walk.projected ? [LIST_SHAPE] : walk.shape;
}
