/** Compiles steps: identity and action checks first (for all steps), then each step's body. */
import { z } from 'zod';
import type { SkillCatalog, SkillCatalogEntry } from '../catalog.js';
import type { Diagnostic } from '../diagnostics.js';
import { LIMITS } from '../limits.js';
import { STEP_ACTIONS } from '../step-actions.js';
import type { ForEachPlanStep, InputTemplate, ParallelPlanStep, PlanStep } from '../runtime/plan.js';
import { matchesRunInputType } from '../runtime/run-inputs.js';
import {
  type ApprovalSource,
  type StepSource,
  type UseWorkflowSource,
  stepSchema,
} from '../schema/definition-schema.js';
import type { ChildDefinition, WorkflowLookup } from '../workflow-lookup.js';
import { listElement, runInputShape, type SchemaShape } from '../schema/schema-path.js';
import { issuesToDiagnostics } from '../schema/zod-issues.js';
import type { DocPath, SourceMap } from '../source/source-map.js';
import { checkSkillInput, compileInput } from './compile-input.js';
import { checkEncyclopediaReferences } from './encyclopedia-references.js';
import { compileTemplate } from './compile-template.js';
import { compileDecide, decideOutputShape } from './compile-decide.js';
import { parseCondition } from './condition-parser.js';
import { parseDuration } from './duration.js';
import { compileEventWait } from './compile-event-wait.js';
import { compileApproval, compileFail, compileRetry, compileWait } from './compile-flow.js';
import { isReservedName, NAME_PATTERN } from '../runtime/names.js';
import { suggestNames } from '../suggest.js';
import {
  checkReference,
  referenceWalk,
  type ReferenceScope,
  type Slot,
  type StepSymbol,
} from './reference-checker.js';
import { formatPath } from '../../lib/errors/skillflow-error.js';

/** Chat and fail steps expose no output fields. */
const NO_OUTPUT: SchemaShape = [z.strictObject({})];

/** A wait step's output: the instant it waited until and how long it slept. */
const WAIT_OUTPUT: SchemaShape = [z.object({ until: z.string(), waited_ms: z.number().int().nonnegative() })];

/**
 * A wait_for_approval step's output: the decision, the payload's declared fields (each optional:
 * a rejection or a timeout may lack them), who decided (a key id) and when.
 */
function approvalOutputShape(source: ApprovalSource): SchemaShape {
  const fields = Object.entries(source.payload ?? {})
    .filter(([name]) => NAME_PATTERN.test(name) && !isReservedName(name))
    .map(([name, spec]) => {
      // An `object` field's shape is `any` (nothing known): any path under it is allowed.
      const shape = runInputShape(spec.type);
      return [name, (shape === 'any' ? z.unknown() : (shape[0] as z.ZodType)).optional()] as const;
    });
  return [
    z.object({
      decision: z.enum(['approved', 'rejected', 'timed_out']),
      payload: z.object(Object.fromEntries(fields)),
      decided_by: z.string().nullable(),
      decided_at: z.string().nullable(),
    }),
  ];
}

/** A wait_for_event step's output: whether the event came, and its data (any JSON object). */
const EVENT_WAIT_OUTPUT: SchemaShape = [
  z.object({ received: z.boolean(), data: z.record(z.string(), z.unknown()) }),
];

const ACTIONS = STEP_ACTIONS;
const ACTION_LIST = `${ACTIONS.slice(0, -1).join(', ')} and ${ACTIONS[ACTIONS.length - 1]}`;

/** A parallel group's own output: how many of its steps completed and failed. */
const GROUP_OUTPUT: SchemaShape = [
  z.object({ completed_count: z.number().int().nonnegative(), failed_count: z.number().int().nonnegative() }),
];

/** The fields that only steps calling an activity take, with what they configure. */
const ACTIVITY_FIELDS = ['timeout', 'retry'] as const;

/** A step that passed the shape check, with its skill when it has one. */
export interface StepEntry {
  /** Its index in its own container. */
  index: number;
  path: DocPath;
  /** Its place, from the top level down (see reference-checker.ts). */
  position: Slot[];
  source: StepSource;
  skill?: SkillCatalogEntry;
  /** A `for_each` or `parallel` step's inner steps. */
  children?: StepEntry[];
  /** Its `on_error` handler's steps. */
  handler?: StepEntry[];
  /** A `use_workflow` step pinned to a version: that version, as the owner's store has it. */
  child?: ChildDefinition;
}

/** What collecting the steps of every level shares. */
interface CollectContext {
  map: SourceMap;
  diagnostics: Diagnostic[];
  catalog: SkillCatalog;
  scheduled: boolean;
  symbols: Map<string, StepSymbol & { path: DocPath }>;
  /** Steps seen so far at every level, against `LIMITS.maxSteps`. */
  total: { count: number; reported: boolean };
  workflows?: WorkflowLookup;
}

/**
 * Validates every step's shape, id and action at every level, and builds the one symbol table
 * of step ids (unique across levels) with each step's place.
 */
export function collectSteps(
  steps: readonly unknown[],
  context: {
    map: SourceMap;
    diagnostics: Diagnostic[];
    catalog: SkillCatalog;
    scheduled: boolean;
    workflows?: WorkflowLookup;
  },
): { entries: StepEntry[]; symbols: Map<string, StepSymbol & { path: DocPath }> } {
  const ctx: CollectContext = { ...context, symbols: new Map(), total: { count: 0, reported: false } };
  const entries = collectLevel(steps, ['steps'], [], { container: '', kind: 'top' }, ctx);
  return { entries, symbols: ctx.symbols };
}

function collectLevel(
  steps: readonly unknown[],
  base: DocPath,
  parent: readonly Slot[],
  container: Omit<Slot, 'index'>,
  ctx: CollectContext,
): StepEntry[] {
  const entries: StepEntry[] = [];
  steps.forEach((raw, index) => {
    const entry = collectStep(raw, [...base, index], [...parent, { ...container, index }], ctx);
    if (entry) entries.push(entry);
  });
  return entries;
}

function collectStep(
  raw: unknown,
  path: DocPath,
  position: Slot[],
  ctx: CollectContext,
): StepEntry | undefined {
  const { map, diagnostics, catalog, symbols } = ctx;
  ctx.total.count += 1;
  if (ctx.total.count > LIMITS.maxSteps && !ctx.total.reported) {
    ctx.total.reported = true;
    const message = `The definition has more than ${LIMITS.maxSteps} steps, inner steps included.`;
    diagnostics.push(map.diagnostic('TOO_LARGE', message, path));
  }
  const parsed = stepSchema.safeParse(raw);
  if (!parsed.success) {
    diagnostics.push(...issuesToDiagnostics(parsed.error.issues, { map, base: path, value: raw }));
    return undefined;
  }
  const source = parsed.data;
  const entry: StepEntry = { index: position[position.length - 1]!.index, path, position, source };
  let output: SchemaShape = 'any';
  if (!NAME_PATTERN.test(source.id) || isReservedName(source.id)) {
    const message = `A step id must match ${NAME_PATTERN.source} and not be constructor or prototype.`;
    diagnostics.push(map.diagnostic('INVALID_STEP_ID', message, [...path, 'id']));
  }
  const actions = ACTIONS.filter((a) => source[a] !== undefined);
  if (actions.length !== 1) {
    const code = actions.length === 0 ? 'MISSING_ACTION' : 'MULTIPLE_ACTIONS';
    diagnostics.push(map.diagnostic(code, `A step needs exactly one of ${ACTION_LIST}.`, path));
  } else {
    checkFieldsOfAction(source, path, map, diagnostics);
  }
  if (source.use_app_skill !== undefined) {
    entry.skill = catalog.get(source.use_app_skill);
    if (!entry.skill) {
      const known = catalog.list();
      const suggestions = suggestNames(source.use_app_skill, known);
      const guess = suggestions.length > 0 ? ` Did you mean ${suggestions.join(' or ')}?` : '';
      const hint = known.length > 0 && known.length <= 20 ? ` Known skills: ${known.join(', ')}.` : '';
      diagnostics.push({
        ...map.diagnostic('UNKNOWN_SKILL', `Unknown skill.${guess}${hint}`, [...path, 'use_app_skill']),
        ...(suggestions.length > 0 && { suggestions }),
      });
    } else {
      output = [entry.skill.workflowOutput];
      if (ctx.scheduled && !entry.skill.unattended) {
        const message = 'This skill may not run unattended, so it cannot be used in a scheduled definition.';
        diagnostics.push(map.diagnostic('SKILL_NOT_UNATTENDED', message, [...path, 'use_app_skill']));
      }
    }
  } else if (source.send_chat_message !== undefined || source.fail !== undefined) {
    output = NO_OUTPUT;
  } else if (source.decide !== undefined) {
    output = decideOutputShape(source.decide);
  } else if (source.wait !== undefined) {
    output = WAIT_OUTPUT;
  } else if (source.wait_for_approval !== undefined) {
    output = approvalOutputShape(source.wait_for_approval);
    if (position.some((slot) => slot.kind === 'for_each')) {
      const message =
        'wait_for_approval cannot run inside a for_each: each approval is one decision of the run.';
      diagnostics.push(
        map.diagnostic('APPROVAL_IN_LOOP', message, [...path, 'wait_for_approval'], { key: true }),
      );
    }
  } else if (source.wait_for_event !== undefined) {
    output = EVENT_WAIT_OUTPUT;
    if (position.some((slot) => slot.kind === 'for_each')) {
      const message =
        'wait_for_event cannot run inside a for_each: an event resumes runs, not loop elements.';
      diagnostics.push(
        map.diagnostic('EVENT_WAIT_IN_LOOP', message, [...path, 'wait_for_event'], { key: true }),
      );
    }
  } else if (source.use_workflow !== undefined) {
    output = collectWorkflow(source.use_workflow, path, entry, ctx);
  } else if (source.for_each !== undefined || source.parallel !== undefined) {
    const kind = source.for_each !== undefined ? 'for_each' : 'parallel';
    const depth = position.filter((slot) => slot.kind !== 'top').length;
    if (depth >= LIMITS.maxGroupDepth) {
      const message = `for_each, parallel and on_error steps may be nested at most ${LIMITS.maxGroupDepth} deep.`;
      diagnostics.push(map.diagnostic('TOO_LARGE', message, [...path, kind], { key: true }));
    } else {
      const inner = (source.for_each ?? source.parallel)!.steps;
      entry.children = collectLevel(
        inner,
        [...path, kind, 'steps'],
        position,
        { container: source.id, kind },
        ctx,
      );
      output = kind === 'for_each' ? loopOutputShape(entry.children, symbols) : GROUP_OUTPUT;
    }
  }
  if (source.on_error !== undefined) {
    const depth = position.filter((slot) => slot.kind !== 'top').length;
    if (depth >= LIMITS.maxGroupDepth) {
      const message = `for_each, parallel and on_error steps may be nested at most ${LIMITS.maxGroupDepth} deep.`;
      diagnostics.push(map.diagnostic('TOO_LARGE', message, [...path, 'on_error'], { key: true }));
    } else {
      // The handler's own container: its steps are private to it, like a loop's.
      const container = { container: `${source.id}/on_error`, kind: 'on_error' as const };
      entry.handler = collectLevel(source.on_error, [...path, 'on_error'], position, container, ctx);
    }
  }
  const first = symbols.get(source.id);
  if (first) {
    const message = `The step id is already used by ${formatPath(first.path)}; step ids must be unique, inner steps included.`;
    diagnostics.push(map.diagnostic('DUPLICATE_STEP_ID', message, [...path, 'id']));
  } else {
    symbols.set(source.id, { position, output, path });
  }
  return entry;
}

/**
 * A `use_workflow` step: with the owner's definitions at hand, the named one must exist (at the
 * pinned version), and a pinned version may not lead back to the version being saved
 * (`WORKFLOW_CYCLE`). Its output is the pinned version's declared outputs; unknown (`any`)
 * when unpinned, for the current version is read at run start.
 */
function collectWorkflow(
  use: UseWorkflowSource,
  path: DocPath,
  entry: StepEntry,
  ctx: CollectContext,
): SchemaShape {
  const at = [...path, 'use_workflow', use.version === undefined ? 'workflow' : 'version'];
  if (ctx.scheduled && use.version === undefined) {
    const message =
      "A scheduled definition must pin each workflow's version: its runs are authorised when it is saved.";
    ctx.diagnostics.push(ctx.map.diagnostic('WORKFLOW_VERSION_REQUIRED', message, at));
  }
  const lookup = ctx.workflows;
  if (!lookup) return 'any';
  const self = lookup.self;
  const cycle = (workflow: string, version: number) => self?.id === workflow && self.version === version;
  if (use.version !== undefined && cycle(use.workflow, use.version)) {
    ctx.diagnostics.push(
      ctx.map.diagnostic('WORKFLOW_CYCLE', 'A pinned use_workflow may not run the version being saved.', at),
    );
    return 'any';
  }
  const child = lookup.get(use.workflow, use.version);
  if (!child) {
    const message =
      use.version === undefined
        ? 'None of your workflow definitions has this id.'
        : 'None of your workflow definitions has this id at this version.';
    ctx.diagnostics.push(ctx.map.diagnostic('UNKNOWN_WORKFLOW', message, at));
    return 'any';
  }
  if (use.version === undefined) return 'any';
  if (child.reaches.some((r) => cycle(r.workflow, r.version))) {
    const message =
      'The pinned version leads back to the version being saved through its own use_workflow steps.';
    ctx.diagnostics.push(ctx.map.diagnostic('WORKFLOW_CYCLE', message, at));
    return 'any';
  }
  if (ctx.scheduled) checkScheduledChild(child, at, ctx);
  entry.child = child;
  return [z.object(Object.fromEntries(child.outputs.map((name) => [name, z.unknown()])))];
}

/**
 * A scheduled definition's pinned child: its runs are authorised at save, so every version it
 * reaches must be pinned too, and every skill on the way must be allowed to run unattended.
 */
function checkScheduledChild(child: ChildDefinition, at: DocPath, ctx: CollectContext): void {
  if (child.unpinned) {
    const message =
      'The pinned version runs another workflow by its current version; a scheduled definition needs pinned versions all the way down.';
    ctx.diagnostics.push(ctx.map.diagnostic('WORKFLOW_VERSION_REQUIRED', message, at));
  }
  if (child.skills.some((ref) => ctx.catalog.get(ref)?.unattended === false)) {
    const message =
      'The pinned version calls a skill that may not run unattended, so a scheduled definition cannot use it.';
    ctx.diagnostics.push(ctx.map.diagnostic('SKILL_NOT_UNATTENDED', message, at));
  }
}

/**
 * A `for_each` step's output: per element, its index, status and the outputs of the inner steps
 * it ran (a parallel group's inner steps included: they are the element's too), then the counts.
 */
function loopOutputShape(
  children: readonly StepEntry[],
  symbols: ReadonlyMap<string, StepSymbol>,
): SchemaShape {
  const outputs: Record<string, z.ZodType> = {};
  const add = (entries: readonly StepEntry[]) => {
    for (const child of entries) {
      const symbol = symbols.get(child.source.id);
      const shape = symbol?.output;
      outputs[child.source.id] = (
        shape === undefined || shape === 'any' ? z.unknown() : (shape[0] as z.ZodType)
      ).optional();
      if (child.source.parallel !== undefined && child.children) add(child.children);
    }
  };
  add(children);
  return [
    z.object({
      results: z.array(
        z.object({
          index: z.number().int().nonnegative(),
          status: z.enum(['completed', 'failed', 'skipped']),
          outputs: z.object(outputs),
          error: z.object({ code: z.string(), message: z.string(), step: z.string() }).optional(),
        }),
      ),
      completed_count: z.number().int().nonnegative(),
      failed_count: z.number().int().nonnegative(),
      outputs_dropped_count: z.number().int().nonnegative(),
    }),
  ];
}

/**
 * Reports fields the step's action does not take: `input` outside skill steps; `timeout` and
 * `retry` on steps that call no activity (wait, fail, for_each, parallel); `continue_on_error`
 * or `on_error` on a fail step; `on_error` with `continue_on_error`.
 */
function checkFieldsOfAction(
  source: StepSource,
  path: DocPath,
  map: SourceMap,
  diagnostics: Diagnostic[],
): void {
  const unknown = (field: string, message: string) =>
    diagnostics.push(map.diagnostic('UNKNOWN_FIELD', message, [...path, field], { key: true }));
  if (source.input !== undefined && source.use_app_skill === undefined)
    unknown('input', 'input belongs to use_app_skill steps only.');
  if (source.on_error !== undefined && source.continue_on_error !== undefined) {
    const message = 'A step takes on_error or continue_on_error, not both.';
    diagnostics.push(map.diagnostic('INVALID_VALUE', message, [...path, 'continue_on_error']));
  }
  const callsNoActivity = [
    source.wait,
    source.wait_for_approval,
    source.wait_for_event,
    source.fail,
    source.for_each,
    source.parallel,
    source.use_workflow,
  ].some((action) => action !== undefined);
  if (!callsNoActivity) return;
  for (const field of ACTIVITY_FIELDS) {
    if (source[field] !== undefined)
      unknown(field, `${field} belongs to steps that call a skill, send a message or decide.`);
  }
  if (source.fail !== undefined && source.continue_on_error !== undefined) {
    const message = 'A fail step always fails; continue_on_error does not apply to it.';
    diagnostics.push(map.diagnostic('INVALID_VALUE', message, [...path, 'continue_on_error']));
  }
  if (source.fail !== undefined && source.on_error !== undefined) {
    const message = 'A fail step always fails; on_error does not apply to it.';
    diagnostics.push(map.diagnostic('INVALID_VALUE', message, [...path, 'on_error'], { key: true }));
  }
}

/** Compiles one step: its condition, timeout, retry and action, then its `on_error` handler. */
export function compileStep(entry: StepEntry, scope: ReferenceScope): PlanStep | undefined {
  const step = compileAction(entry, scope);
  if (!entry.handler) return step;
  const handler: PlanStep[] = [];
  let ok = true;
  for (const child of entry.handler) {
    const compiled = compileStep(child, { ...scope, position: child.position, handler: true });
    if (compiled) handler.push(compiled);
    else ok = false;
  }
  return step && ok ? { ...step, onError: handler } : undefined;
}

function compileAction(entry: StepEntry, scope: ReferenceScope): PlanStep | undefined {
  const { source, path } = entry;
  const base = { id: source.id, continueOnError: source.continue_on_error ?? false };
  const condition = source.if === undefined ? undefined : compileCondition(source.if, [...path, 'if'], scope);
  if (source.wait !== undefined) {
    const wait = compileWait(source.wait, [...path, 'wait'], scope);
    return wait && { ...base, kind: 'wait', ...wait, ...(condition && { if: condition }) };
  }
  if (source.wait_for_approval !== undefined) {
    const approval = compileApproval(source.wait_for_approval, [...path, 'wait_for_approval'], scope);
    return approval && { ...base, kind: 'approval', ...approval, ...(condition && { if: condition }) };
  }
  if (source.wait_for_event !== undefined) {
    const wait = compileEventWait(source.wait_for_event, [...path, 'wait_for_event'], scope);
    return wait && { ...base, kind: 'event_wait', ...wait, ...(condition && { if: condition }) };
  }
  if (source.fail !== undefined) {
    const fail = compileFail(source.fail, [...path, 'fail'], scope);
    return fail && { ...base, kind: 'fail', ...fail, ...(condition && { if: condition }) };
  }
  if (source.for_each !== undefined || source.parallel !== undefined) {
    const group = compileGroup(entry, scope);
    return group && { ...base, ...group, ...(condition && { if: condition }) };
  }
  if (source.use_workflow !== undefined) {
    const use = source.use_workflow;
    const inputsPath = [...path, 'use_workflow', 'inputs'];
    const value = use.inputs ?? {};
    const { template } = compileInput(value, inputsPath, scope);
    if (entry.child) checkChildInputs(entry.child, value, inputsPath, scope);
    return {
      ...base,
      kind: 'workflow',
      workflow: use.workflow,
      ...(use.version !== undefined && { version: use.version }),
      inputs: template,
      ...(condition && { if: condition }),
    };
  }
  const maxTimeoutMs =
    entry.skill?.maxTimeoutMs ?? (source.decide ? LIMITS.decideMaxTimeoutMs : LIMITS.chatMaxTimeoutMs);
  const timeoutMs =
    source.timeout === undefined
      ? undefined
      : compileTimeout(source.timeout, [...path, 'timeout'], maxTimeoutMs, scope);
  const maxRetry = entry.skill?.maxRetry ?? (source.decide ? LIMITS.decideMaxRetry : LIMITS.chatMaxRetry);
  const retry = source.retry && compileRetry(source.retry, [...path, 'retry'], maxRetry, scope);
  const extras = {
    ...(condition && { if: condition }),
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(retry && { retry }),
  };
  if (source.use_app_skill !== undefined) {
    const inputPath = [...path, 'input'];
    const value = source.input ?? {};
    const { template, references } = compileInput(value, inputPath, scope);
    if (entry.skill) checkSkillInput(entry.skill.input, value, inputPath, references, scope);
    const skill = source.use_app_skill;
    return { ...base, kind: 'skill', skill, activity: skill, input: template, ...extras };
  }
  if (source.decide !== undefined) {
    const decide = compileDecide(source.decide, [...path, 'decide'], scope);
    return decide && { ...base, kind: 'decide', ...decide, ...extras };
  }
  const chat = source.send_chat_message;
  if (!chat) return undefined;
  const chatPath = [...path, 'send_chat_message'];
  const template = (text: string, key: string) =>
    compileTemplate(text, scope, { path: [...chatPath, key], offset: 0 });
  checkEncyclopediaReferences(chat.message, scope, [...chatPath, 'message']);
  return {
    ...base,
    kind: 'chat',
    title: template(chat.title, 'title'),
    message: template(chat.message, 'message'),
    ...(chat.chat_id !== undefined && { chatId: template(chat.chat_id, 'chat_id') }),
    ...extras,
  };
}

/**
 * A `for_each` or `parallel` step: its inner steps compiled in their own places; a loop's
 * `items` (a literal list or a whole-string reference to one) gives them the element's shape.
 */
function compileGroup(
  entry: StepEntry,
  scope: ReferenceScope,
):
  | Pick<ForEachPlanStep, 'kind' | 'items' | 'concurrency' | 'steps'>
  | Pick<ParallelPlanStep, 'kind' | 'steps'>
  | undefined {
  const { source, path } = entry;
  const children = entry.children;
  if (!children) return undefined;
  if (source.parallel !== undefined) {
    const steps = compileChildren(children, scope, scope.loop);
    return steps && { kind: 'parallel', steps };
  }
  const loop = source.for_each!;
  const itemsPath = [...path, 'for_each', 'items'];
  const items = compileItems(loop.items, itemsPath, scope);
  const steps = compileChildren(children, scope, items?.element ?? 'any');
  if (!items || !steps) return undefined;
  return { kind: 'for_each', items: items.template, concurrency: loop.concurrency ?? 1, steps };
}

function compileChildren(
  children: readonly StepEntry[],
  scope: ReferenceScope,
  loop: SchemaShape | undefined,
): PlanStep[] | undefined {
  const steps: PlanStep[] = [];
  let ok = true;
  for (const child of children) {
    const step = compileStep(child, { ...scope, position: child.position, ...(loop ? { loop } : {}) });
    if (step) steps.push(step);
    else ok = false;
  }
  return ok ? steps : undefined;
}

/** A loop's `items`: a literal list (at most `LIMITS.maxLoopItems`) or a reference to a list. */
function compileItems(
  value: unknown,
  path: DocPath,
  scope: ReferenceScope,
): { template: InputTemplate; element: SchemaShape } | undefined {
  const report = (code: Diagnostic['code'], message: string) => {
    scope.diagnostics.push(scope.map.diagnostic(code, message, path));
    return undefined;
  };
  if (Array.isArray(value)) {
    if (value.length > LIMITS.maxLoopItems)
      return report('TOO_LARGE', `A for_each takes at most ${LIMITS.maxLoopItems} items.`);
    return { template: compileInput(value, path, scope).template, element: 'any' };
  }
  if (typeof value !== 'string')
    return report('INVALID_VALUE', 'items must be a list, or a whole-string reference to one.');
  const before = scope.diagnostics.length;
  const { template } = compileInput(value, path, scope);
  if (scope.diagnostics.length > before) return undefined;
  if (template.kind !== 'ref')
    return report('INVALID_VALUE', 'items must be a list, or a whole-string reference to one.');
  const walk = referenceWalk(scope, template.ref);
  const element = walk ? listElement(walk) : 'any';
  if (!element) return report('NOT_A_LIST', 'items must be a list, but this reference does not yield one.');
  return { template, element };
}

function compileCondition(text: string, path: DocPath, scope: ReferenceScope): PlanStep['if'] {
  if (text.length > LIMITS.maxConditionChars) {
    const message = `The condition has ${text.length} characters; the limit is ${LIMITS.maxConditionChars}.`;
    scope.diagnostics.push(scope.map.diagnostic('TOO_LARGE', message, path));
    return undefined;
  }
  const parsed = parseCondition(text);
  if (!parsed.ok) {
    scope.diagnostics.push(
      scope.map.diagnostic('CONDITION_SYNTAX', parsed.message, path, { offset: parsed.offset }),
    );
    return undefined;
  }
  for (const { ref, offset } of parsed.refs) checkReference(scope, ref, { path, offset });
  return parsed.node;
}

function compileTimeout(
  text: string,
  path: DocPath,
  maxMs: number,
  scope: ReferenceScope,
): number | undefined {
  const ms = parseDuration(text);
  if (ms === undefined || ms < LIMITS.minTimeoutMs) {
    const message = `Invalid timeout: use a duration such as 30s or 2m, at least 1s.`;
    scope.diagnostics.push(scope.map.diagnostic('INVALID_DURATION', message, path));
    return undefined;
  }
  if (ms > maxMs) {
    scope.diagnostics.push(
      scope.map.diagnostic(
        'TIMEOUT_TOO_LONG',
        `The timeout exceeds the maximum of ${maxMs / 1000}s for this step.`,
        path,
      ),
    );
    return undefined;
  }
  return ms;
}

/**
 * A pinned child's inputs: every name declared by it, every required one without a default
 * given, and a literal value (one without references) of its declared type.
 */
function checkChildInputs(
  child: ChildDefinition,
  value: Record<string, unknown>,
  path: DocPath,
  scope: ReferenceScope,
): void {
  const report = (at: DocPath, message: string, key = false) =>
    scope.diagnostics.push(scope.map.diagnostic('INVALID_WORKFLOW_INPUT', message, at, { key }));
  for (const [name, given] of Object.entries(value)) {
    const spec = Object.hasOwn(child.inputs, name) ? child.inputs[name] : undefined;
    if (!spec) {
      report([...path, name], 'The workflow does not declare this input.', true);
      continue;
    }
    const literal = typeof given !== 'string' || !(given.includes('{{') || given.startsWith('$'));
    if (literal && !matchesRunInputType(spec.type, given))
      report([...path, name], `The workflow declares this input as ${spec.type}.`);
  }
  const missing = Object.entries(child.inputs).filter(
    ([name, spec]) => spec.required && spec.default === undefined && !Object.hasOwn(value, name),
  ).length;
  if (missing > 0)
    report(
      path,
      `${missing} required input${missing === 1 ? '' : 's'} of the workflow ${missing === 1 ? 'is' : 'are'} missing.`,
    );
}
