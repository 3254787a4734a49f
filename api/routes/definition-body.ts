/**
 * The JSON Schema of a workflow definition as the API documents it: the bodies of
 * `POST /v1/workflows` and `PUT /v1/workflows/{id}`. Built from the language's own zod schemas
 * (definitions/schema/definition-schema.ts) with what the compiler enforces that JSON Schema can
 * say: required fields, exactly one trigger, exactly one action per step with only the fields
 * that action takes, the loaded skills, name patterns and size limits. What it does not say
 * (references between steps, unique step ids, the step total across levels, templates,
 * conditions, cron, durations, a skill's own input rules, the 64 KiB source limit) is the
 * compiler's `422 INVALID_DEFINITION` with diagnostics.
 *
 * Inner steps (`for_each`, `parallel`, `on_error`) are documented by their id only. The full step
 * again at every nesting depth (as `$defs` references, or unrolled) makes Schemathesis' contract
 * run of the two definition routes alone outlast the whole run's time limit.
 */
import { z } from 'zod';
import { FAIL_CODE_PATTERN } from '../../definitions/compiler/compile-flow.js';
import { LIMITS } from '../../definitions/limits.js';
import { NAME_PATTERN } from '../../definitions/runtime/names.js';
import {
  approvalSchema,
  concurrencySchema,
  chatActionSchema,
  decideSchema,
  EVENT_NAME_PATTERN,
  eventWaitSchema,
  failSchema,
  forEachSchema,
  parallelSchema,
  retrySchema,
  RUN_INPUT_TYPES,
  scheduleSchema,
  stepSchema,
  useWorkflowSchema,
  waitSchema,
} from '../../definitions/schema/definition-schema.js';

/** A step id, run input, payload, match or output name: the name pattern, without the reserved names. */
const Name = z.string().regex(new RegExp(`^(?!(?:constructor|prototype)$)${NAME_PATTERN.source.slice(1)}`));
const Template = z.string().max(LIMITS.maxTemplateChars);

const RunInput = z.strictObject({
  type: z.enum(RUN_INPUT_TYPES),
  required: z.boolean().optional(),
  default: z.unknown().optional().describe('Of the declared type.'),
  description: z.string().max(1000).optional(),
});

const Inputs = z.record(Name, RunInput).meta({ maxProperties: LIMITS.maxRunInputs }).optional();

const Trigger = z
  .union([
    z.strictObject({ manual: z.strictObject({ inputs: Inputs }).nullable() }),
    z.strictObject({
      event: z.strictObject({ name: z.string().regex(EVENT_NAME_PATTERN), inputs: Inputs }),
    }),
    z.strictObject({ webhook: z.strictObject({ inputs: Inputs }).nullable() }),
    z.strictObject({
      schedule: z.union([
        scheduleSchema.omit({ every: true }).required({ cron: true }),
        scheduleSchema.omit({ cron: true }).required({ every: true }),
      ]),
    }),
  ])
  .describe(
    'Exactly one trigger: `manual`, `event` (a name) or `webhook`, each with optional run inputs, or `schedule` (`cron` or `every`).',
  );

/** A list of inner steps, with the bounds the language gives `list` (e.g. `for_each.steps`). */
function innerSteps(list: z.ZodArray<z.ZodUnknown>, steps: z.ZodType): z.ZodArray {
  const bounds = (list.def.checks ?? []) as z.core.$ZodCheck<unknown[]>[];
  return z.array(steps).check(...bounds);
}

/** The actions that call nothing (they take no `timeout` or `retry`), without nested steps. */
const FLOW_ACTIONS = {
  wait: z.union([
    waitSchema.omit({ until: true }).required({ duration: true }),
    waitSchema.omit({ duration: true }).required({ until: true }).extend({ until: Template }),
  ]),
  use_workflow: useWorkflowSchema,
  wait_for_approval: approvalSchema.extend({ title: Template.min(1), payload: Inputs }),
  wait_for_event: eventWaitSchema.extend({
    name: z.string().regex(EVENT_NAME_PATTERN),
    match: z.record(Name, Template).meta({ maxProperties: LIMITS.maxEventMatchFields }).optional(),
  }),
};

const ID = Name.describe('Unique within the definition, inner steps included.');
const IF = z.string().max(LIMITS.maxConditionChars).optional();
/** What steps that call a skill, send a message or decide take besides their action. */
const ACTIVITY_FIELDS = {
  timeout: z.string().optional().describe('A duration such as `30s`, within the action policy.'),
  retry: retrySchema.optional(),
};

/**
 * An inner step (of `for_each`, `parallel` or `on_error`). It takes what a top-level step takes,
 * nested at most `LIMITS.maxGroupDepth` deep; only its id is documented, and the compiler checks
 * the rest as at the top level.
 */
const INNER_STEP = z
  .looseObject({ id: ID })
  .describe(
    `A step, as in the top-level steps; for_each, parallel and on_error nest at most ${LIMITS.maxGroupDepth} deep.`,
  );

/** A top-level step: exactly one action with the fields that action takes. */
function step(skills: readonly string[]): z.ZodType {
  // A fail step always fails: it takes neither `on_error` nor `continue_on_error`.
  const plain = { id: ID, if: IF };
  const fallible = {
    ...plain,
    continue_on_error: z.boolean().optional(),
    on_error: innerSteps(stepSchema.shape.on_error.unwrap(), INNER_STEP).optional(),
  };
  const activity = { ...fallible, ...ACTIVITY_FIELDS };
  const items = z
    .union([z.array(z.unknown()).max(LIMITS.maxLoopItems), z.string()])
    .describe('A list, or a whole-string reference to one.');
  const variants: z.ZodType[] = [
    z.strictObject({
      ...activity,
      use_app_skill: skills.length > 0 ? z.enum(skills as [string, ...string[]]) : z.never(),
      input: z.record(z.string(), z.unknown()).optional().describe("The skill's input; templates allowed."),
    }),
    z.strictObject({
      ...activity,
      send_chat_message: chatActionSchema.extend({
        title: Template,
        message: Template,
        chat_id: Template.optional(),
      }),
    }),
    z.strictObject({ ...activity, decide: decideSchema }),
    z.strictObject({
      ...plain,
      fail: failSchema.extend({ code: z.string().regex(FAIL_CODE_PATTERN) }),
    }),
    ...Object.entries(FLOW_ACTIONS).map(([action, schema]) =>
      z.strictObject({ ...fallible, [action]: schema }),
    ),
    z.strictObject({
      ...fallible,
      for_each: forEachSchema.extend({ items, steps: innerSteps(forEachSchema.shape.steps, INNER_STEP) }),
    }),
    z.strictObject({
      ...fallible,
      parallel: parallelSchema.extend({ steps: innerSteps(parallelSchema.shape.steps, INNER_STEP) }),
    }),
  ];
  return z.union(variants).meta({
    description: `A step: exactly one action (${ACTION_NAMES}), with the fields that action takes.`,
    // A step takes on_error or continue_on_error, not both.
    not: { required: ['on_error', 'continue_on_error'] },
  });
}

const ACTION_NAMES =
  'use_app_skill, send_chat_message, decide, wait, fail, for_each, parallel, use_workflow, wait_for_approval or wait_for_event';

/** A definition's top level, for the given loaded skills (`<app>.<skill>`). */
export function definitionJsonSchema(skills: readonly string[]): Record<string, unknown> {
  const definition = z.strictObject({
    title: z.string().min(1).max(200),
    description: z.string().max(4000).optional(),
    start_when: Trigger,
    steps: z
      .array(step(skills))
      .min(1)
      .max(LIMITS.maxSteps)
      .describe(
        `Each step has exactly one action: ${ACTION_NAMES}. for_each, parallel and on_error hold inner steps, nested at most ${LIMITS.maxGroupDepth} deep.`,
      ),
    outputs: z
      // A value without `{{` is plain text, which the template limit does not bound.
      .record(Name, z.string())
      .meta({ maxProperties: LIMITS.maxOutputs })
      .optional()
      .describe("What a parent's use_workflow step receives: names to templates or whole-string references."),
    concurrency: concurrencySchema
      .optional()
      .describe(
        'Flow control: at most `limit` runs of this definition have a step running at once, per value of `key` (a template of run inputs) when given; the others wait queued in arrival order.',
      ),
  });
  const { $schema: _, ...schema } = z.toJSONSchema(definition, { io: 'input', unrepresentable: 'any' });
  return schema;
}
