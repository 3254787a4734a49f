/**
 * The other definitions a definition's `use_workflow` steps name, read from the owner's store:
 * for compiling (a lookup of the named versions, with what each pinned version reaches, so the
 * compiler can check inputs, outputs and cycles while staying pure) and for starting a run (the
 * children's plans and policies as a snapshot, resolved recursively at most
 * `MAX_WORKFLOW_DEPTH` deep, each (definition, version) read once, at most `MAX_CHILD_RUNS`
 * children and `MAX_SNAPSHOT_CHARS` of JSON in all). Only the owner's own definitions are ever
 * found.
 */
import type { ActivityPolicy } from '../../activities/policy.js';
import {
  compileDefinition,
  type ChildDefinition,
  type CompileOptions,
  type CompileResult,
  type Plan,
  type WorkflowLookup,
} from '../../definitions/index.js';
import { allSteps, planSkills, triggerInputs, type PlanStep } from '../../definitions/runtime/index.js';
import type { Keyring } from '../../lib/crypto/keyring.js';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { Store } from '../../lib/store/db.js';
import { findDefinition, type StoredDefinition } from '../../lib/store/owners/definitions.js';
import type { ChildRunSnapshot } from '../../workflows/run-definition.js';

/** How deep `use_workflow` runs nest: the run itself is depth 1. */
export const MAX_WORKFLOW_DEPTH = 5;
/** `use_workflow` steps a run's snapshot may hold, across all depths. */
export const MAX_CHILD_RUNS = 25;
/** Characters of JSON a run's snapshot of its children may take (a Temporal payload is ≤ 2 MB). */
export const MAX_SNAPSHOT_CHARS = 1_000_000;

type WorkflowStep = Extract<PlanStep, { kind: 'workflow' }>;

/** The `use_workflow` steps of a plan, at any depth (inner, handler steps included). */
export function workflowSteps(steps: readonly PlanStep[]): WorkflowStep[] {
  return allSteps(steps).filter((s): s is WorkflowStep => s.kind === 'workflow');
}

/** A run's children, resolved at its start. */
export interface ResolvedChildren {
  /** By step id, each with its own children; undefined when the plan runs no other workflow. */
  children?: Record<string, ChildRunSnapshot>;
  /** The `<app>.<skill>` every child at every depth calls (the caller's scopes must allow them). */
  skills: string[];
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
    for (const { id, version } of named) {
      if (found.has(keyOf(id, version))) continue;
      const def = await this.find(ownerId, id, version);
      if (def) found.set(keyOf(id, version), { ...describe(def), ...(await this.reach(ownerId, def.plan)) });
    }
    return compileDefinition(source, {
      ...opts,
      workflows: { get: (id, version) => found.get(keyOf(id, version)), ...(self && { self }) },
    });
  }

  /**
   * What a plan's pinned steps reach, transitively (bounded): every (definition, version), every
   * skill called on the way, and whether some step on the way runs a workflow unpinned.
   */
  private async reach(
    ownerId: string,
    plan: Plan,
  ): Promise<Pick<ChildDefinition, 'reaches' | 'skills' | 'unpinned'>> {
    const seen = new Map<string, { workflow: string; version: number }>();
    const skills = new Set(planSkills(plan));
    let unpinned = false;
    let frontier = [plan];
    for (let depth = 0; depth < MAX_WORKFLOW_DEPTH && frontier.length > 0; depth++) {
      const next: Plan[] = [];
      for (const p of frontier)
        for (const step of workflowSteps(p.steps)) {
          if (step.version === undefined) {
            unpinned = true;
            continue;
          }
          const k = keyOf(step.workflow, step.version);
          if (seen.has(k)) continue;
          seen.set(k, { workflow: step.workflow, version: step.version });
          const def = await this.find(ownerId, step.workflow, step.version);
          if (!def) continue;
          for (const skill of planSkills(def.plan)) skills.add(skill);
          next.push(def.plan);
        }
      frontier = next;
    }
    return { reaches: [...seen.values()], skills: [...skills].sort(), unpinned };
  }

  /**
   * The children of a run about to start (`definitionId`: the run's definition, undefined while
   * it is being created), by step id, each with its own children: the pinned version or the
   * current one. A child that no longer exists (`WORKFLOW_NOT_FOUND`), inputs that do not name
   * the child's (`INVALID_WORKFLOW_INPUT`), nesting deeper than MAX_WORKFLOW_DEPTH
   * (`WORKFLOW_DEPTH_EXCEEDED`) or a snapshot past its bounds (`WORKFLOW_TREE_TOO_LARGE`) refuses
   * the start. The details name the step and the definition it belongs to.
   */
  async resolve(
    ownerId: string,
    plan: Plan,
    policiesFor: (plan: Plan) => Record<string, ActivityPolicy>,
    definitionId?: string,
  ): Promise<ResolvedChildren> {
    const read = new Map<string, Promise<StoredDefinition | undefined>>();
    const skills = new Set<string>();
    let count = 0;
    const tooLarge = () =>
      new SkillflowError('WORKFLOW_TREE_TOO_LARGE', undefined, {
        max_children: MAX_CHILD_RUNS,
        max_chars: MAX_SNAPSHOT_CHARS,
      });
    const level = async (
      p: Plan,
      inDefinition: string | undefined,
      depth: number,
    ): Promise<Record<string, ChildRunSnapshot> | undefined> => {
      const steps = workflowSteps(p.steps);
      if (steps.length === 0) return undefined;
      if (depth >= MAX_WORKFLOW_DEPTH)
        throw new SkillflowError('WORKFLOW_DEPTH_EXCEEDED', undefined, { max_depth: MAX_WORKFLOW_DEPTH });
      const out: Record<string, ChildRunSnapshot> = {};
      for (const step of steps) {
        if ((count += 1) > MAX_CHILD_RUNS) throw tooLarge();
        const where = { step: step.id, ...(inDefinition && { definition_id: inDefinition }) };
        const key = keyOf(step.workflow, step.version);
        if (!read.has(key)) read.set(key, this.find(ownerId, step.workflow, step.version));
        const def = await read.get(key)!;
        if (!def) throw new SkillflowError('WORKFLOW_NOT_FOUND', undefined, where);
        if (!inputNamesMatch(step, def.plan))
          throw new SkillflowError('INVALID_WORKFLOW_INPUT', undefined, where);
        for (const skill of planSkills(def.plan)) skills.add(skill);
        const children = await level(def.plan, def.id, depth + 1);
        out[step.id] = {
          definitionId: def.id,
          definitionVersion: def.version,
          plan: def.plan,
          policies: policiesFor(def.plan),
          ...(children && { children }),
        };
      }
      return out;
    };
    const children = await level(plan, definitionId, 1);
    if (children && JSON.stringify(children).length > MAX_SNAPSHOT_CHARS) throw tooLarge();
    return { ...(children && { children }), skills: [...skills].sort() };
  }
}

const keyOf = (id: string, version?: number) => `${id}@${version ?? 'current'}`;

function describe(def: StoredDefinition): Pick<ChildDefinition, 'id' | 'version' | 'inputs' | 'outputs'> {
  const trigger = def.plan.trigger;
  return {
    id: def.id,
    version: def.version,
    inputs: triggerInputs(trigger),
    outputs: (def.plan.outputs ?? []).map((o) => o.name),
  };
}

/**
 * Whether the input names a step gives (when its inputs are an object written out) fit the
 * child's declared inputs: none undeclared, and every required one without a default given.
 * Values are checked when the step renders them.
 */
function inputNamesMatch(step: WorkflowStep, plan: Plan): boolean {
  const given =
    step.inputs.kind === 'object'
      ? step.inputs.fields.map((f) => f.key)
      : step.inputs.kind === 'literal' && step.inputs.value && typeof step.inputs.value === 'object'
        ? Object.keys(step.inputs.value)
        : undefined;
  if (!given) return true;
  const specs = triggerInputs(plan.trigger);
  const undeclared = given.some((name) => !Object.hasOwn(specs, name));
  const missing = Object.entries(specs).some(
    ([name, spec]) => spec.required && spec.default === undefined && !given.includes(name),
  );
  return !undeclared && !missing;
}
