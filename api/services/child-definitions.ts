/**
 * The other definitions a definition's `use_workflow` steps name, read from the owner's store:
 * for compiling (a lookup of the named versions, with what each pinned version reaches, so the
 * compiler can check inputs, outputs and cycles while staying pure) and for starting a run (the
 * children's plans and policies as a snapshot, resolved recursively at most
 * `MAX_WORKFLOW_DEPTH` deep). Only the owner's own definitions are ever found.
 */
import type { ActivityPolicy } from '../../activities/policy.js';
import {
  compileDefinition,
  type ChildDefinition,
  type CompileOptions,
  type CompileResult,
  type Plan,
  type PlanStep,
  type WorkflowLookup,
} from '../../definitions/index.js';
import type { Keyring } from '../../lib/crypto/keyring.js';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { Store } from '../../lib/store/db.js';
import { findDefinition, type StoredDefinition } from '../../lib/store/owners/definitions.js';
import type { ChildRunSnapshot } from '../../workflows/run-definition.js';

/** How deep `use_workflow` runs nest: the run itself is depth 1. */
export const MAX_WORKFLOW_DEPTH = 5;

/** The `use_workflow` steps of a plan, at any depth (inner, handler steps included). */
export function workflowSteps(steps: readonly PlanStep[]): Array<Extract<PlanStep, { kind: 'workflow' }>> {
  return steps.flatMap((s) => [
    ...(s.kind === 'workflow' ? [s] : []),
    ...(s.kind === 'for_each' || s.kind === 'parallel' ? workflowSteps(s.steps) : []),
    ...(s.onError ? workflowSteps(s.onError) : []),
  ]);
}

export class ChildDefinitions {
  constructor(
    private readonly store: Store,
    private readonly keyring: Keyring,
  ) {}

  find(ownerId: string, id: string, version?: number): Promise<StoredDefinition | undefined> {
    return findDefinition(this.store, this.keyring, ownerId, id, version);
  }

  /**
   * Compiles with the owner's definitions at hand: a first compile names the definitions the
   * source uses (it stops there when it uses none), a second one checks against them.
   */
  async compile(
    ownerId: string,
    source: string,
    opts: Omit<CompileOptions, 'workflows'>,
    self?: WorkflowLookup['self'],
  ): Promise<CompileResult> {
    const named: Array<{ id: string; version?: number }> = [];
    const first = compileDefinition(source, {
      ...opts,
      workflows: {
        get: (id, version) => {
          named.push({ id, ...(version !== undefined && { version }) });
          return undefined;
        },
      },
    });
    if (named.length === 0) return first;
    const found = new Map<string, ChildDefinition>();
    const key = (id: string, version?: number) => `${id}@${version ?? 'current'}`;
    for (const { id, version } of named) {
      if (found.has(key(id, version))) continue;
      const def = await this.find(ownerId, id, version);
      if (def)
        found.set(key(id, version), { ...describe(def), reaches: await this.reaches(ownerId, def.plan) });
    }
    return compileDefinition(source, {
      ...opts,
      workflows: { get: (id, version) => found.get(key(id, version)), ...(self && { self }) },
    });
  }

  /** Every (definition, version) a plan's pinned steps reach, transitively (bounded). */
  private async reaches(ownerId: string, plan: Plan): Promise<ChildDefinition['reaches']> {
    const seen = new Map<string, { workflow: string; version: number }>();
    let frontier = [plan];
    for (let depth = 0; depth < MAX_WORKFLOW_DEPTH && frontier.length > 0; depth++) {
      const next: Plan[] = [];
      for (const p of frontier)
        for (const step of workflowSteps(p.steps)) {
          if (step.version === undefined) continue;
          const k = `${step.workflow}@${step.version}`;
          if (seen.has(k)) continue;
          seen.set(k, { workflow: step.workflow, version: step.version });
          const def = await this.find(ownerId, step.workflow, step.version);
          if (def) next.push(def.plan);
        }
      frontier = next;
    }
    return [...seen.values()];
  }

  /**
   * The children of a run about to start, by step id, each with its own children: the pinned
   * version or the current one. A child that no longer exists, or nesting deeper than
   * MAX_WORKFLOW_DEPTH, refuses the start.
   */
  async snapshot(
    ownerId: string,
    plan: Plan,
    policiesFor: (plan: Plan) => Record<string, ActivityPolicy>,
    depth = 1,
  ): Promise<Record<string, ChildRunSnapshot> | undefined> {
    const steps = workflowSteps(plan.steps);
    if (steps.length === 0) return undefined;
    if (depth >= MAX_WORKFLOW_DEPTH)
      throw new SkillflowError('WORKFLOW_DEPTH_EXCEEDED', undefined, { max_depth: MAX_WORKFLOW_DEPTH });
    const out: Record<string, ChildRunSnapshot> = {};
    for (const step of steps) {
      const def = await this.find(ownerId, step.workflow, step.version);
      if (!def) throw new SkillflowError('WORKFLOW_NOT_FOUND', undefined, { step: step.id });
      checkInputNames(step, def.plan);
      const children = await this.snapshot(ownerId, def.plan, policiesFor, depth + 1);
      out[step.id] = {
        definitionId: def.id,
        definitionVersion: def.version,
        plan: def.plan,
        policies: policiesFor(def.plan),
        ...(children && { children }),
      };
    }
    return out;
  }
}

function describe(def: StoredDefinition): Omit<ChildDefinition, 'reaches'> {
  const trigger = def.plan.trigger;
  return {
    id: def.id,
    version: def.version,
    inputs: trigger.type === 'manual' ? trigger.inputs : {},
    outputs: (def.plan.outputs ?? []).map((o) => o.name),
  };
}

/**
 * The input names a step gives (when its inputs are an object written out) against the child's
 * declared inputs: an undeclared one, or a required one without a default missing, refuses the
 * start. Values are checked when the step renders them.
 */
function checkInputNames(step: Extract<PlanStep, { kind: 'workflow' }>, plan: Plan): void {
  const given =
    step.inputs.kind === 'object'
      ? step.inputs.fields.map((f) => f.key)
      : step.inputs.kind === 'literal' && step.inputs.value && typeof step.inputs.value === 'object'
        ? Object.keys(step.inputs.value)
        : undefined;
  if (!given) return;
  const specs = plan.trigger.type === 'manual' ? plan.trigger.inputs : {};
  const undeclared = given.some((name) => !Object.hasOwn(specs, name));
  const missing = Object.entries(specs).some(
    ([name, spec]) => spec.required && spec.default === undefined && !given.includes(name),
  );
  if (undeclared || missing) throw new SkillflowError('INVALID_WORKFLOW_INPUT', undefined, { step: step.id });
}
