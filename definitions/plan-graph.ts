/**
 * The picture of a compiled plan: a node per step, edges for the order. Built from the plan alone
 * (the compiler's output), so what is drawn is what runs. Pure.
 *
 * - Steps of one list follow each other: an edge from each step to the next.
 * - A step with `if` is entered by an edge labelled with its condition; an `else` edge runs from
 *   the step before it to the step after it (the path taken when it is skipped).
 * - A `for_each` or `parallel` step is a compound node: its inner steps name it as `parent`. A
 *   loop's inner steps follow each other; a group's run side by side, with no edge between them.
 * - A step's `on_error` handler is a compound node of its own (`kind: handler`, id
 *   `<step id>.on_error`), entered from the step by an `on error` edge.
 */
import { z } from 'zod';
import {
  EACH_SEGMENT,
  type ConditionNode,
  type PathSegment,
  type Plan,
  type PlanStep,
  type Reference,
} from './runtime/plan.js';

/** Every kind of plan step, as the API names them. */
export const PLAN_STEP_KINDS = [
  'skill',
  'chat',
  'decide',
  'wait',
  'fail',
  'for_each',
  'parallel',
  'workflow',
  'approval',
  'event_wait',
] as const satisfies readonly PlanStep['kind'][];
/** Fails to compile when a step kind is missing from the list above. */
type _EveryKindListed = PlanStep['kind'] extends (typeof PLAN_STEP_KINDS)[number] ? true : never;
const _everyKindListed: _EveryKindListed = true;
void _everyKindListed;

export const PlanGraphNodeSchema = z.object({
  id: z.string().describe('The step id (a handler: `<step id>.on_error`).'),
  kind: z
    .enum([...PLAN_STEP_KINDS, 'handler'])
    .describe('The step kind; `handler` groups the steps of an `on_error` handler.'),
  label: z.string().describe('What the step does: its skill, or its kind in words.'),
  parent: z.string().optional().describe('The `for_each`, `parallel` or handler node the step runs inside.'),
  condition: z.string().optional().describe('The step runs only when this `if` holds.'),
});

export const PlanGraphEdgeSchema = z.object({
  from: z.string(),
  to: z.string(),
  label: z.string().optional().describe('`if <condition>`, `else` or `on error`; absent for plain order.'),
});

export const PlanGraphSchema = z.object({
  nodes: z.array(PlanGraphNodeSchema),
  edges: z.array(PlanGraphEdgeSchema),
});

export type PlanGraphNode = z.infer<typeof PlanGraphNodeSchema>;
export type PlanGraphEdge = z.infer<typeof PlanGraphEdgeSchema>;
export type PlanGraph = z.infer<typeof PlanGraphSchema>;

/** The suffix of a handler node's id. */
export const HANDLER_SUFFIX = '.on_error';

function pathText(path: readonly PathSegment[]): string {
  return path.map((s) => (s === EACH_SEGMENT ? s : `.${String(s)}`)).join('');
}

function referenceText(ref: Reference): string {
  switch (ref.root) {
    case 'steps':
      return `steps.${ref.step}${pathText(ref.path)}`;
    case 'inputs':
      return `inputs.${ref.name}${pathText(ref.path)}`;
    case 'item':
      return `this${pathText(ref.path)}`;
    case 'data':
      return `@${ref.name}`;
    case 'loop':
      return `item${pathText(ref.path)}`;
    case 'loop_index':
      return 'index';
    case 'error':
      return `error.${ref.field}`;
  }
}

/** A condition in the `if` grammar, parenthesised only where the grammar needs it. */
export function conditionText(c: ConditionNode): string {
  switch (c.kind) {
    case 'or':
    case 'and': {
      const side = (n: ConditionNode) =>
        n.kind === 'or' && c.kind === 'and' ? `(${conditionText(n)})` : conditionText(n);
      return `${side(c.left)} ${c.kind === 'and' ? '&&' : '||'} ${side(c.right)}`;
    }
    case 'not':
      return c.operand.kind === 'or' || c.operand.kind === 'and' || c.operand.kind === 'compare'
        ? `!(${conditionText(c.operand)})`
        : `!${conditionText(c.operand)}`;
    case 'compare':
      return `${conditionText(c.left)} ${c.op} ${conditionText(c.right)}`;
    case 'literal':
      return typeof c.value === 'string' ? `'${c.value}'` : String(c.value);
    case 'ref':
      return referenceText(c.ref);
  }
}

function durationText(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/** What a step does, in a few words. */
export function stepLabel(step: PlanStep): string {
  switch (step.kind) {
    case 'skill':
      return step.skill;
    case 'chat':
      return 'send a chat message';
    case 'decide':
      return `decide (${step.decision.type})`;
    case 'wait':
      return step.durationMs !== undefined ? `wait ${durationText(step.durationMs)}` : 'wait until a time';
    case 'fail':
      return `fail with ${step.code}`;
    case 'for_each':
      return step.concurrency === 1
        ? 'for each item, in order'
        : `for each item, ${step.concurrency} at a time`;
    case 'parallel':
      return 'side by side';
    case 'workflow':
      return `run ${step.workflow}${step.version !== undefined ? ` v${step.version}` : ''}`;
    case 'approval':
      return 'wait for approval';
    case 'event_wait':
      return `wait for event ${step.name}`;
  }
}

/** The graph of a plan's steps: nodes in plan order (a compound before its inner steps). */
export function planGraph(plan: Pick<Plan, 'steps'>): PlanGraph {
  const nodes: PlanGraphNode[] = [];
  const edges: PlanGraphEdge[] = [];

  const addList = (steps: readonly PlanStep[], parent: string | undefined, chained: boolean) => {
    steps.forEach((step, i) => {
      const condition = step.if ? conditionText(step.if) : undefined;
      nodes.push({
        id: step.id,
        kind: step.kind,
        label: stepLabel(step),
        ...(parent !== undefined && { parent }),
        ...(condition !== undefined && { condition }),
      });
      if (step.kind === 'for_each') addList(step.steps, step.id, true);
      if (step.kind === 'parallel') addList(step.steps, step.id, false);
      if (step.onError) {
        const handler = `${step.id}${HANDLER_SUFFIX}`;
        nodes.push({
          id: handler,
          kind: 'handler',
          label: `when ${step.id} fails`,
          ...(parent !== undefined && { parent }),
        });
        edges.push({ from: step.id, to: handler, label: 'on error' });
        addList(step.onError, handler, true);
      }
      if (!chained) return;
      const before = steps[i - 1];
      const after = steps[i + 1];
      if (before)
        edges.push({
          from: before.id,
          to: step.id,
          ...(condition !== undefined && { label: `if ${condition}` }),
        });
      if (condition !== undefined && before && after)
        edges.push({ from: before.id, to: after.id, label: 'else' });
    });
  };

  addList(plan.steps, undefined, true);
  return { nodes, edges };
}
