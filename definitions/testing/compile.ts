/** Test helpers: compile against the test catalog and pick out diagnostics. */
import { compileDefinition, type CompileResult } from '../compiler/compile-definition.js';
import type { Diagnostic } from '../diagnostics.js';
import type { Plan } from '../runtime/plan.js';
import type { SourceFormat } from '../source/parse-source.js';
import { createTestCatalog } from './test-catalog.js';

/** Compiles `source` with the test catalog. */
export function compileForTest(source: string, format: SourceFormat = 'auto'): CompileResult {
  return compileDefinition(source, { catalog: createTestCatalog(), format });
}

/** The diagnostics of a definition that must fail. */
export function diagnosticsOf(source: string, format: SourceFormat = 'auto'): Diagnostic[] {
  const result = compileForTest(source, format);
  if (result.ok) throw new Error('expected the definition to fail');
  return result.diagnostics;
}

/** The plan of a definition that must compile. */
export function planOf(source: string, format: SourceFormat = 'auto'): Plan {
  const result = compileForTest(source, format);
  if (!result.ok) throw new Error(`expected a plan, got ${JSON.stringify(result.diagnostics)}`);
  return result.plan;
}

/**
 * Where the diagnostics of a definition stand, each as `[code, path, line, column]`; empty when
 * it compiles.
 */
export function positionsOf(source: string): Array<[string, string, number, number]> {
  const result = compileForTest(source);
  return result.ok ? [] : result.diagnostics.map((d) => [d.code, d.path, d.line, d.column]);
}

/** A `start_when` (for {@link withSteps}) of a manual trigger with one optional text input. */
export function manualWithTextInput(name: string): string {
  return `  manual:\n    inputs:\n      ${name}: { type: string }`;
}

/** A manual definition whose steps are given as YAML (indented two spaces under `steps:`). */
export function withSteps(steps: string, startWhen = '  manual: {}'): string {
  return `title: t\nstart_when:\n${startWhen}\nsteps:\n${steps}`;
}

/** The standard first step: a domain search with id `search` (lines 5-9 of {@link withSteps}). */
export const SEARCH_STEP = `  - id: search
    use_app_skill: hosting.search_domains
    input:
      requests:
        - query: cedar
`;
