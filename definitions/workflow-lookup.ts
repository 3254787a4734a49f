/**
 * What the compiler may know of the other definitions a `use_workflow` step names: the caller
 * (the definitions service) looks them up in the owner's store before compiling, so the compiler
 * stays pure. A pinned version is checked against it at compile time; an unpinned one at run
 * start.
 */
import type { RunInputSpec } from './runtime/plan.js';

/** One version of another definition of the same owner. */
export interface ChildDefinition {
  id: string;
  version: number;
  /** Its declared run inputs (none for a scheduled definition). */
  inputs: Readonly<Record<string, RunInputSpec>>;
  /** The names of its declared `outputs`. */
  outputs: readonly string[];
  /** Every (definition, version) its pinned `use_workflow` steps reach, transitively. */
  reaches: ReadonlyArray<{ workflow: string; version: number }>;
  /** The `<app>.<skill>` its steps and the versions it reaches call. */
  skills: readonly string[];
  /** Whether it, or a version it reaches, runs a workflow by its current version (unpinned). */
  unpinned: boolean;
}

export interface WorkflowLookup {
  /** The definition at `version` (or its current version), or undefined when the owner has none. */
  get(id: string, version?: number): ChildDefinition | undefined;
  /** The definition being saved and the version it will get, for the cycle check. */
  self?: { id: string; version: number };
}
