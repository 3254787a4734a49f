/**
 * The compiled plan: plain, serialisable JSON that the interpreter workflow executes. Everything
 * here is data; the workflow never sees YAML, handlebars or zod. Bump {@link PLAN_VERSION} on any
 * change a running interpreter could misread.
 */

/** Version of the plan format. */
export const PLAN_VERSION = 1 as const;

/** JSON data as it travels through plans, inputs and step outputs. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * One step along a path. A string is an own-property name, a number an array index, and the
 * string `[]` projects over every element of an array (`results[].fqdn` → list of fqdn).
 */
export type PathSegment = string | number;

/** The projection marker within a {@link PathSegment} list. */
export const EACH_SEGMENT = '[]';

/** Where a value comes from at run time. */
export type Reference =
  /** A step's workflow-visible output (`$nodes.<id>.output.<path>` or `{{steps.<id>.<path>}}`). */
  | { root: 'steps'; step: string; path: PathSegment[] }
  /** A run input (`inputs.<name>.<path>`). */
  | { root: 'inputs'; name: string; path: PathSegment[] }
  /** The current `#each` element (`this`, `this.<path>` or a bare path inside `#each`). */
  | { root: 'item'; path: PathSegment[] }
  /** `@index`, `@first` or `@last` of the innermost `#each`. */
  | { root: 'data'; name: 'index' | 'first' | 'last' }
  /** The current `for_each` element (`{{item}}`, `{{item.<path>}}`, `$item.<path>`). */
  | { root: 'loop'; path: PathSegment[] }
  /** The current `for_each` element's 0-based position (`{{index}}`, `$index`). */
  | { root: 'loop_index' }
  /** Inside an `on_error` handler: the failure's code or failing step (`{{error.code}}`). */
  | { root: 'error'; field: 'code' | 'step' };

/** Helpers allowed in templates. */
export type HelperName = 'len' | 'json' | 'default';

/** A value inside a template: a reference, a literal or a helper call. */
export type ValueExpr =
  | { kind: 'ref'; ref: Reference }
  | { kind: 'literal'; value: string | number | boolean | null }
  | { kind: 'helper'; name: HelperName; args: ValueExpr[] };

/** A compiled handlebars template: a list of these nodes, rendered in order. */
export type TemplateNode =
  | { kind: 'text'; text: string }
  | { kind: 'value'; expr: ValueExpr }
  /** `#if` (negate false) or `#unless` (negate true). */
  | { kind: 'if'; negate: boolean; cond: ValueExpr; then: TemplateNode[]; else: TemplateNode[] }
  | { kind: 'each'; list: ValueExpr; body: TemplateNode[]; else: TemplateNode[] };

/** A skill step's input with its references left to resolve at run time. */
export type InputTemplate =
  /** A subtree without references, used as written. */
  | { kind: 'literal'; value: JsonValue }
  | { kind: 'object'; fields: Array<{ key: string; value: InputTemplate }> }
  | { kind: 'array'; items: InputTemplate[] }
  /** A string that is exactly one reference: keeps the referenced value's type. */
  | { kind: 'ref'; ref: Reference }
  /** A string with references embedded in text: renders to a string. */
  | { kind: 'text'; template: TemplateNode[] };

/** Comparison operators of the `if` grammar. */
export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** A parsed `if` predicate. */
export type ConditionNode =
  | { kind: 'or' | 'and'; left: ConditionNode; right: ConditionNode }
  | { kind: 'not'; operand: ConditionNode }
  | { kind: 'compare'; op: CompareOp; left: ConditionNode; right: ConditionNode }
  | { kind: 'literal'; value: string | number | boolean | null }
  | { kind: 'ref'; ref: Reference };

/** Types a manual run input may declare. */
export type RunInputType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';

/** A declared run input of a manual trigger. */
export interface RunInputSpec {
  type: RunInputType;
  required: boolean;
  default?: JsonValue;
  description?: string;
}

/** How runs start. */
export type PlanTrigger =
  | { type: 'manual'; inputs: Record<string, RunInputSpec> }
  | { type: 'event'; name: string; inputs: Record<string, RunInputSpec> }
  | { type: 'webhook'; inputs: Record<string, RunInputSpec> }
  | ({ type: 'schedule'; cron: string; timezone: string } & SchedulePolicy)
  | ({ type: 'schedule'; every: string; everyMs: number; timezone: string } & SchedulePolicy);

/** What a schedule does with a tick that comes while its previous run is still going. */
export const SCHEDULE_OVERLAPS = [
  'skip',
  'buffer_one',
  'buffer_all',
  'cancel_other',
  'terminate_other',
  'allow_all',
] as const;
export type ScheduleOverlap = (typeof SCHEDULE_OVERLAPS)[number];

/**
 * A schedule's overlap policy and catch-up window, as the author wrote them (newer than plan
 * version 1): absent means the defaults, {@link DEFAULT_SCHEDULE_POLICY}.
 */
export interface SchedulePolicy {
  overlap?: ScheduleOverlap;
  catchupWindowMs?: number;
}

/** The schedule policy of a trigger that names none: today's and every older plan's. */
export const DEFAULT_SCHEDULE_POLICY = {
  overlap: 'skip',
  catchupWindowMs: 5 * 60_000,
} as const satisfies Required<SchedulePolicy>;

interface PlanStepBase {
  id: string;
  if?: ConditionNode;
  continueOnError: boolean;
  timeoutMs?: number;
  /**
   * A step's own retry rule (`retry:`), narrowing its policy profile's: applied to the activity
   * options when the run starts. Only steps that call an activity hold it.
   */
  retry?: RetryOverride;
  /**
   * `on_error`: steps run when this step fails (after its retries); the run then goes on unless
   * they fail. Added after plan version 1: older plans never hold it.
   */
  onError?: PlanStep[];
}

/** `retry:` of a step, within its policy profile's bounds (checked at compile time). */
export interface RetryOverride {
  maximumAttempts?: number;
  initialIntervalMs?: number;
  backoffCoefficient?: number;
}

/** `use_app_skill`: run the skill's activity. */
export interface SkillPlanStep extends PlanStepBase {
  kind: 'skill';
  /** Skill reference, `<app>.<skill>`. */
  skill: string;
  /** Activity name; equal to the skill reference. */
  activity: string;
  input: InputTemplate;
}

/** `send_chat_message`: render and deliver a chat message. */
export interface ChatPlanStep extends PlanStepBase {
  kind: 'chat';
  title: TemplateNode[];
  message: TemplateNode[];
  chatId?: TemplateNode[];
}

/** The typed part of a `decide` step: what is asked and what answers when the model cannot. */
export type DecisionSpec =
  | { type: 'choice'; options: string[]; fallback: string; minConfidence?: number }
  /** A boolean fallback makes a boolean answer (probability ≥ 0.5); a number one a probability. */
  | { type: 'noul'; fallback: boolean | number; minConfidence?: number }
  | { type: 'score'; fallback: number; minConfidence?: number };

/**
 * `decide`: ask the decision helper one bounded question (an activity) and expose
 * `{ answer, confidence, fallback_used, reason? }`. Added after plan version 1 shipped: only new
 * plans hold it, so histories of older runs never reach its code path.
 */
export interface DecidePlanStep extends PlanStepBase {
  kind: 'decide';
  decision: DecisionSpec;
  question: TemplateNode[];
  context?: TemplateNode[];
}

/**
 * `wait`: a durable timer in the workflow (no worker is held). `durationMs` is fixed at compile
 * time; `until` renders to an ISO-8601 instant at run time (a past instant continues at once).
 * Its output is `{ until, waited_ms }`. Added after plan version 1: older plans never hold it.
 */
export interface WaitPlanStep extends PlanStepBase {
  kind: 'wait';
  durationMs?: number;
  until?: TemplateNode[];
}

/**
 * `fail`: fails the run with the author's own code and rendered message (never retried). Added
 * after plan version 1: older plans never hold it.
 */
export interface FailPlanStep extends PlanStepBase {
  kind: 'fail';
  code: string;
  message: TemplateNode[];
}

/**
 * `for_each`: runs `steps` once per element of `items` (a list), at most `concurrency` elements
 * at a time, in the order of `items` when 1. Its output is `{ results: [{ index, status, outputs:
 * { <inner id>: output } }], completed_count, failed_count }`. Added after plan version 1.
 */
export interface ForEachPlanStep extends PlanStepBase {
  kind: 'for_each';
  items: InputTemplate;
  concurrency: number;
  steps: PlanStep[];
}

/**
 * `parallel`: runs `steps` at the same time; each inner step's output is referenceable after the
 * group under its own id. Added after plan version 1.
 */
export interface ParallelPlanStep extends PlanStepBase {
  kind: 'parallel';
  steps: PlanStep[];
}

/**
 * `use_workflow`: runs another definition of the same owner as a child workflow with `inputs`
 * (an object template) and exposes the child's declared `outputs`. `version` pins one version;
 * without it the child's current version at run start is used. Added after plan version 1.
 */
export interface WorkflowPlanStep extends PlanStepBase {
  kind: 'workflow';
  workflow: string;
  version?: number;
  inputs: InputTemplate;
}

/**
 * `wait_for_approval`: the run waits (a durable timer, no worker held) until a person approves
 * or rejects through the API, with a payload checked against `payload`, or `timeoutMs` passes.
 * Its output is `{ decision: approved|rejected|timed_out, payload, decided_by, decided_at }`.
 * Added after plan version 1.
 */
export interface ApprovalPlanStep extends PlanStepBase {
  kind: 'approval';
  title: TemplateNode[];
  payload: Record<string, RunInputSpec>;
  timeoutMs: number;
  onTimeout: 'fail' | 'continue';
}

/**
 * `wait_for_event`: the run waits (a durable timer, no worker held) until its owner sends an event
 * named `name` whose data fields equal every rendered `match` value, or `timeoutMs` passes. Its
 * output is `{ received: true|false, data }`. Added after plan version 1.
 */
export interface EventWaitPlanStep extends PlanStepBase {
  kind: 'event_wait';
  name: string;
  /** Data field name → a template rendered to the text the field must equal. */
  match: Record<string, TemplateNode[]>;
  timeoutMs: number;
  onTimeout: 'fail' | 'continue';
}

/** One step of a plan. */
export type PlanStep =
  | SkillPlanStep
  | ChatPlanStep
  | DecidePlanStep
  | WaitPlanStep
  | FailPlanStep
  | ForEachPlanStep
  | ParallelPlanStep
  | WorkflowPlanStep
  | ApprovalPlanStep
  | EventWaitPlanStep;

/** The steps that call an activity (and so have an activity policy). */
export type ActivityPlanStep = SkillPlanStep | ChatPlanStep | DecidePlanStep;

/** Whether `step` calls an activity. */
export function callsActivity(step: PlanStep): step is ActivityPlanStep {
  return step.kind === 'skill' || step.kind === 'chat' || step.kind === 'decide';
}

/** Every step of a list at any depth: inner steps of loops and groups, and handler steps. */
export function allSteps(steps: readonly PlanStep[]): PlanStep[] {
  return steps.flatMap((s) => [
    s,
    ...(s.kind === 'for_each' || s.kind === 'parallel' ? allSteps(s.steps) : []),
    ...(s.onError ? allSteps(s.onError) : []),
  ]);
}

/** The `<app>.<skill>` of every skill step of the plan, at any depth. */
export function planSkills(plan: Plan): string[] {
  return allSteps(plan.steps).flatMap((s) => (s.kind === 'skill' ? [s.skill] : []));
}

/** A compiled definition. */
export interface Plan {
  planVersion: typeof PLAN_VERSION;
  title: string;
  description?: string;
  trigger: PlanTrigger;
  steps: PlanStep[];
  /**
   * The definition's declared `outputs`, resolved against the finished run (what a parent's
   * `use_workflow` step receives). Added after plan version 1.
   */
  outputs?: Array<{ name: string; value: InputTemplate }>;
  /**
   * Flow control: at most `limit` runs of the definition have a step running at once, per value
   * of `key` (rendered from the run inputs) when it has one. Added after plan version 1.
   */
  concurrency?: PlanConcurrency;
}

export interface PlanConcurrency {
  limit: number;
  key?: InputTemplate;
}

/**
 * What references resolve against at run time: run inputs, earlier steps' workflow outputs and,
 * inside a `for_each`, the current element and its position.
 */
export interface RunScope {
  inputs: Record<string, unknown>;
  steps: Record<string, unknown>;
  loop?: { item: unknown; index: number };
  /** Inside an `on_error` handler: the failure it handles. */
  error?: { code: string; step: string };
}

/** The run inputs a trigger declares: a manual or event trigger's; none for a schedule. */
export function triggerInputs(trigger: PlanTrigger): Record<string, RunInputSpec> {
  return trigger.type === 'schedule' ? {} : trigger.inputs;
}
