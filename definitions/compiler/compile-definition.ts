/**
 * The compiler's entry point: parse → validate shape → compile trigger and steps (checking
 * references and skill capabilities) → plan. Every problem found is reported at once, up to
 * `LIMITS.maxDiagnostics` of them (then one more diagnostic says how many were left out).
 */
import type { SkillCatalog } from '../catalog.js';
import { type Diagnostic, listDiagnostics } from '../diagnostics.js';
import { LIMITS } from '../limits.js';
import { isReservedName, NAME_PATTERN } from '../runtime/names.js';
import { type InputTemplate, type Plan, PLAN_VERSION, type PlanStep } from '../runtime/plan.js';
import { definitionSchema } from '../schema/definition-schema.js';
import { issuesToDiagnostics } from '../schema/zod-issues.js';
import { parseSource, type SourceFormat } from '../source/parse-source.js';
import type { WorkflowLookup } from '../workflow-lookup.js';
import { EMPTY_OUTLINE, type Outline, outlineOf } from './outline.js';
import { compileInput } from './compile-input.js';
import { collectSteps, compileStep } from './compile-step.js';
import type { ReferenceScope } from './reference-checker.js';
import { compileTrigger } from './compile-trigger.js';

/** Options of {@link compileDefinition}. */
export interface CompileOptions {
  /** Defaults to `auto`: by file extension, else JSON when the text starts with `{`. */
  format?: SourceFormat;
  catalog: SkillCatalog;
  /** Used for format detection only; diagnostics carry no file name. */
  fileName?: string;
  /** The owner's other definitions, for `use_workflow` steps; without it they are not checked. */
  workflows?: WorkflowLookup;
}

/** The plan, or every diagnostic; with the outline of the steps as far as they compile. */
export type CompileResult =
  | { ok: true; plan: Plan; diagnostics: []; outline: Outline }
  | { ok: false; diagnostics: Diagnostic[]; outline: Outline };

/** Compiles a YAML or JSON definition into a plan. */
export function compileDefinition(source: string, opts: CompileOptions): CompileResult {
  const parsed = parseSource(source, opts.format ?? 'auto', opts.fileName);
  const { map } = parsed;
  const diagnostics = [...parsed.diagnostics];
  if (parsed.fatal) return { ok: false, diagnostics: listDiagnostics(diagnostics), outline: EMPTY_OUTLINE };

  const value = parsed.value;
  const top = definitionSchema.safeParse(value);
  if (!top.success) diagnostics.push(...issuesToDiagnostics(top.error.issues, { map, base: [], value }));
  const isRecord = typeof value === 'object' && value !== null && !Array.isArray(value);
  const record = isRecord ? (value as Record<string, unknown>) : {};

  // zod reports a missing start_when (as it does every missing top-level field).
  const trigger = Object.hasOwn(record, 'start_when')
    ? compileTrigger(record.start_when, map, diagnostics)
    : { trigger: undefined, inputs: new Map(), scheduled: false };

  const rawSteps = Array.isArray(record.steps) ? (record.steps as unknown[]) : [];
  // The top level alone past the limit stops here; inner steps count towards it as collected.
  if (rawSteps.length > LIMITS.maxSteps) {
    const message = `The definition has ${rawSteps.length} steps; the limit is ${LIMITS.maxSteps}.`;
    diagnostics.push(map.diagnostic('TOO_LARGE', message, ['steps'], { key: true }));
    return { ok: false, diagnostics: listDiagnostics(diagnostics), outline: EMPTY_OUTLINE };
  }
  const { entries, symbols } = collectSteps(rawSteps, {
    map,
    diagnostics,
    catalog: opts.catalog,
    scheduled: trigger.scheduled,
    ...(opts.workflows && { workflows: opts.workflows }),
  });
  const outline = outlineOf(symbols, map);
  const steps: PlanStep[] = [];
  for (const entry of entries) {
    const scope = {
      map,
      diagnostics,
      steps: symbols,
      position: entry.position,
      inputs: trigger.inputs,
      scheduled: trigger.scheduled,
    };
    const step = compileStep(entry, scope);
    if (step) steps.push(step);
  }
  const outputs =
    top.success && top.data.outputs
      ? compileOutputs(top.data.outputs, {
          map,
          diagnostics,
          steps: symbols,
          position: [{ container: '', kind: 'top', index: entries.length }],
          inputs: trigger.inputs,
          scheduled: trigger.scheduled,
        })
      : undefined;

  const concurrency = top.success && top.data.concurrency ? top.data.concurrency : undefined;
  // The key is rendered before the first step: it may read the run inputs only.
  const key =
    concurrency?.key !== undefined
      ? compileInput(concurrency.key, ['concurrency', 'key'], {
          map,
          diagnostics,
          steps: new Map(),
          position: [{ container: '', kind: 'top', index: 0 }],
          inputs: trigger.inputs,
          scheduled: trigger.scheduled,
        }).template
      : undefined;

  if (diagnostics.length > 0 || !top.success || !trigger.trigger) {
    return { ok: false, diagnostics: listDiagnostics(diagnostics), outline };
  }
  const plan: Plan = {
    planVersion: PLAN_VERSION,
    title: top.data.title,
    ...(top.data.description !== undefined && { description: top.data.description }),
    trigger: trigger.trigger,
    steps,
    ...(outputs && { outputs }),
    ...(concurrency && { concurrency: { limit: concurrency.limit, ...(key && { key }) } }),
  };
  return { ok: true, plan, diagnostics: [], outline };
}

/**
 * The definition's `outputs`: at most `LIMITS.maxOutputs` names (`lower_snake`), each a template
 * or a whole-string reference that may read every step (they are resolved once the run is done).
 */
function compileOutputs(
  outputs: Record<string, string>,
  scope: ReferenceScope,
): Array<{ name: string; value: InputTemplate }> {
  const names = Object.keys(outputs);
  if (names.length > LIMITS.maxOutputs) {
    const message = `A definition declares at most ${LIMITS.maxOutputs} outputs.`;
    scope.diagnostics.push(scope.map.diagnostic('TOO_LARGE', message, ['outputs'], { key: true }));
    return [];
  }
  return names.map((name) => {
    if (!NAME_PATTERN.test(name) || isReservedName(name)) {
      const message = `An output name must match ${NAME_PATTERN.source} and not be constructor or prototype.`;
      scope.diagnostics.push(
        scope.map.diagnostic('INVALID_VALUE', message, ['outputs', name], { key: true }),
      );
    }
    return { name, value: compileInput(outputs[name]!, ['outputs', name], scope).template };
  });
}
