/**
 * The workflow language: parse, validate and compile YAML/JSON definitions into plans. The
 * workflow itself imports only `definitions/runtime/` (pure); everything here runs outside it.
 */
export { compileDefinition, type CompileOptions, type CompileResult } from './compiler/compile-definition.js';
export { OutlineSchema, type Outline } from './compiler/outline.js';
export { createStaticCatalog, type SkillCatalog, type SkillCatalogEntry } from './catalog.js';
export {
  DIAGNOSTIC_CODES,
  DiagnosticSchema,
  formatDiagnostics,
  sortDiagnostics,
  type Diagnostic,
  type DiagnosticCode,
} from './diagnostics.js';
export { LIMITS } from './limits.js';
export type { ChildDefinition, WorkflowLookup } from './workflow-lookup.js';
export { FAIL_CODE_PATTERN } from './compiler/compile-flow.js';
export { detectFormat, type SourceFormat } from './source/parse-source.js';
export { planGraph, PLAN_STEP_KINDS, PlanGraphSchema, type PlanGraph } from './plan-graph.js';
export * from './runtime/index.js';
