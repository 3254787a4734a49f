/** Response bodies shared by several routes (request schemas live next to their routes). */
import { z } from 'zod';
import { PLAN_STEP_KINDS, PlanGraphSchema } from '../definitions/index.js';
import { ErrorEnvelopeSchema } from '../lib/errors/skillflow-error.js';

export { DiagnosticSchema } from '../definitions/index.js';
export { ErrorEnvelopeSchema };

/** Standard error responses for OpenAPI, per status. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorEnvelopeSchema> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorEnvelopeSchema]));
}

/** The parts of a route schema that decide which framework-level errors it can answer. */
export interface RouteSchemaShape {
  params?: unknown;
  querystring?: unknown;
  headers?: unknown;
  body?: unknown;
  security?: unknown;
}

/**
 * The error statuses any route of this shape can answer whatever its handler does:
 * 400 for invalid input (params, query, headers, body), 413 and 415 for a body that is too large
 * or of another type, and 401, 403 and 429 for authenticated routes (token, scope, tier rate
 * limit). Added to every route's responses by the app, so no route has to repeat them.
 */
export function standardErrorResponses(schema: RouteSchemaShape): Record<number, typeof ErrorEnvelopeSchema> {
  const statuses: number[] = [];
  if (schema.params || schema.querystring || schema.headers || schema.body) statuses.push(400);
  if (schema.body) statuses.push(413, 415);
  if (schema.security) statuses.push(401, 403, 429);
  return errorResponses(...statuses);
}

export const StepProgressSchema = z.object({
  id: z.string(),
  status: z
    .enum(['pending', 'running', 'completed', 'failed', 'skipped', 'cancelled', 'reused'])
    .describe(
      "`reused`: a re-run took over the output the earlier run recorded (the step did not run; its times are the earlier run's).",
    ),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  output_summary: z
    .record(z.string(), z.union([z.number(), z.boolean()]))
    .nullable()
    .describe('Counts only, never content.'),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  stage: z
    .string()
    .optional()
    .describe(
      'A running long-running skill call: the stage its last heartbeat named (e.g. `querying_upstream`); never content.',
    ),
  wake_at: z
    .string()
    .optional()
    .describe('A wait step that started: the instant it sleeps (or slept) until.'),
  elements: z
    .object({
      total: z.number().int(),
      completed: z.number().int(),
      failed: z.number().int(),
      running: z.number().int(),
      reused: z
        .number()
        .int()
        .optional()
        .describe("A re-run's loop: elements whose earlier outputs it took over (counted in `completed`)."),
      failures: z.array(
        z.object({
          index: z.number().int(),
          step: z.string(),
          error: z.object({ code: z.string(), message: z.string() }),
        }),
      ),
    })
    .optional()
    .describe('A for_each step: its elements counted, and the first failed ones (at most 5).'),
  group: z.string().optional().describe('An inner step of a parallel group: the group step id.'),
  handler: z
    .string()
    .optional()
    .describe('A step of an on_error handler: the id of the step whose failure it handles.'),
  handled: z
    .boolean()
    .optional()
    .describe('A failed step whose on_error handler ran to its end; the run went on.'),
  child_task_id: z
    .string()
    .optional()
    .describe("A use_workflow step that started its child: the child run's task id (GET /v1/tasks/{id})."),
  approval: z
    .object({ expires_at: z.string() })
    .optional()
    .describe('A wait_for_approval step that started: when its wait ends without a decision.'),
  event: z
    .object({ name: z.string(), expires_at: z.string() })
    .optional()
    .describe('A wait_for_event step that started: the event it waits for and when its wait ends.'),
});

/** The one status vocabulary of tasks and runs, everywhere (API, OpenAPI, SDK, CLI). */
export const TaskStatusSchema = z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

/** Who pays for a skill call (its usage record); null for workflow runs. */
export const TaskBillingSchema = z.object({
  billed_to: z.object({ type: z.enum(['owner', 'team']), id: z.string() }),
  request_items: z.number().int(),
  credits: z.number(),
});

export const TaskSchema = z.object({
  task_id: z.string(),
  kind: z.enum(['workflow_run', 'skill_call']),
  status: TaskStatusSchema,
  definition: z.object({ id: z.string(), version: z.number().int().nullable() }).nullable(),
  skill: z.string().nullable(),
  trigger: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  steps: z.array(StepProgressSchema),
  result: z
    .unknown()
    .describe('Workflow runs: { outputs, steps }. Skill calls: { output, previews }. Null until completed.'),
  error: z
    .object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()) })
    .nullable(),
  billing: TaskBillingSchema.nullable(),
  rerun_of: z
    .string()
    .nullable()
    .describe('A re-run: the task id of the run it re-ran (POST /v1/runs/{run_id}/rerun); otherwise null.'),
  reruns: z
    .array(z.string())
    .describe('A closed run: the task ids of its re-runs, newest first (at most 20); empty otherwise.'),
  trace_id: z
    .string()
    .optional()
    .describe(
      'The OpenTelemetry trace the task was started in (32 hex digits), when the API that started it exported traces.',
    ),
  queue: z
    .object({
      position: z
        .number()
        .int()
        .min(1)
        .nullable()
        .describe('1 is next; null while the gate that keeps the queue does not answer.'),
      reason: z
        .enum(['concurrency', 'owner_cap'])
        .nullable()
        .describe("`concurrency`: the definition's limit (for its key) is full; `owner_cap`: the owner's."),
    })
    .optional()
    .describe(
      'A queued run under flow control: its place in the queue. Present only while the status is `queued` for that reason.',
    ),
  links: z.object({ self: z.string(), temporal_ui: z.string() }),
});
export type TaskView = z.infer<typeof TaskSchema>;

/** One step of a workflow run: what its call was given and what it answered. */
export const RunStepSchema = z.object({
  run_id: z.string(),
  step_id: z.string().describe("As the run names it; a loop element's inner step is `loop[2].inner`."),
  kind: z.enum(PLAN_STEP_KINDS).describe('The kind of step, from the plan the run started with.'),
  skill: z.string().nullable().describe('A skill step: `<app>.<skill>`; otherwise null.'),
  call: z
    .object({
      state: z
        .enum(['scheduled', 'started', 'completed', 'failed', 'timed_out', 'cancelled', 'abandoned'])
        .describe(
          '`scheduled`: waiting for a worker or its next attempt; `started`: running now; `abandoned`: the run ended (terminated, timed out) while the call was open.',
        ),
      attempt: z
        .number()
        .int()
        .nullable()
        .describe(
          'The attempt that started last; null while none has started, and for a call the history does not say.',
        ),
      input: z
        .unknown()
        .describe(
          "A skill step: its input with every reference resolved. A decision: its question and context. A chat message: its chat id only (the message is sealed to the owner's chat keys).",
        ),
      output: z.unknown().describe("The call's answer once completed; otherwise null."),
    })
    .nullable()
    .describe(
      "The step's call; null for a step that calls nothing (a wait, a loop, ...) or has not been called yet.",
    ),
});
export type RunStepView = z.infer<typeof RunStepSchema>;

/** One run in a definition's run history. */
export const RunSummarySchema = z.object({
  task_id: z.string(),
  status: TaskStatusSchema,
  trigger: z.string().nullable(),
  definition_version: z.number().int().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
});
export type RunSummary = z.infer<typeof RunSummarySchema>;

/** One run in a search across definitions: a run summary with its definition and failed step. */
export const RunListItemSchema = RunSummarySchema.extend({
  workflow_id: z.string().nullable().describe('The definition the run ran (`wf_...`).'),
  failed_step: z
    .string()
    .nullable()
    .describe(
      'A failed run: the id of its top-level step that failed; null otherwise (and for runs from before this field).',
    ),
});
export type RunListItem = z.infer<typeof RunListItemSchema>;

export const TaskIdParams = z.object({ task_id: z.string().min(1).max(220) });

/** A definition's schedule, as Temporal reports it. */
export const ScheduleStateSchema = z.object({
  schedule_id: z.string(),
  paused: z.boolean(),
  timezone: z.string().nullable(),
  next_runs: z.array(z.string()),
  recent_task_ids: z.array(z.string()),
});
export type ScheduleState = z.infer<typeof ScheduleStateSchema>;

/** A run input a manual trigger declares (`start_when.manual.inputs.<name>`). */
export const RunInputViewSchema = z.object({
  type: z.enum(['string', 'number', 'integer', 'boolean', 'array', 'object']),
  required: z.boolean(),
  default: z.unknown().optional(),
  description: z.string().optional(),
});

/** A webhook trigger's hook, as a definition's answers show it. */
export const HookSchema = z.object({
  id: z.string(),
  url: z
    .string()
    .describe(
      "Where the sender posts: `POST <url>` with a JSON body and `X-Skillflow-Signature` (docs/triggers.md). Its origin is `PUBLIC_URL` when set, else the API's own address.",
    ),
  rotated_at: z.string().describe('When the current signing secret was made.'),
  previous_secret_expires_at: z
    .string()
    .nullable()
    .describe('Until when the secret before the last rotation is still accepted; null when it is not.'),
  signing_secret: z
    .string()
    .optional()
    .describe(
      'The HMAC key, exactly this string. Present only in the answer that made it (the save that gave the definition its webhook trigger, or a rotation); it is never shown again.',
    ),
});

/** A workflow definition with its source and schedule. */
export const DefinitionSchema = z.object({
  id: z.string(),
  title: z.string(),
  version: z.number().int(),
  trigger_type: z.enum(['manual', 'schedule', 'event', 'webhook']),
  created_at: z.string(),
  updated_at: z.string(),
  source: z.string(),
  /** The run inputs its trigger declares, by name (empty for a schedule): what a run form asks for. */
  inputs: z
    .record(z.string(), RunInputViewSchema)
    .describe('Run inputs the trigger declares (manual, event or webhook), by name; empty for a schedule.'),
  schedule: ScheduleStateSchema.nullable(),
  hook: HookSchema.nullable().describe("The webhook trigger's hook; null for other triggers."),
  graph: PlanGraphSchema.describe(
    'The compiled steps as a graph (a node per step, edges for the order): what the workspace draws.',
  ),
});

/** A definition in the list: without source, inputs and schedule. */
export const DefinitionSummarySchema = DefinitionSchema.omit({
  graph: true,
  source: true,
  inputs: true,
  schedule: true,
  hook: true,
});
export type DefinitionSummary = z.infer<typeof DefinitionSummarySchema>;

/** A declared payload field of an approval (typed like a run input). */
export const PayloadFieldSchema = z.object({
  type: z.enum(['string', 'number', 'integer', 'boolean', 'array', 'object']),
  required: z.boolean(),
  default: z.unknown().optional(),
  description: z.string().optional(),
});

/** One approval a run waits for. */
export const PendingApprovalSchema = z.object({
  run_id: z.string().describe("The waiting run's task id."),
  step_id: z.string(),
  title: z.string().describe('The rendered title, shown to the approver.'),
  payload: z.record(z.string(), PayloadFieldSchema).describe('The fields an approval may (or must) carry.'),
  expires_at: z.string(),
  definition: z.object({ id: z.string(), version: z.number().int() }),
  link: z
    .string()
    .describe(
      'The approval link: the workspace page `/#approve/<token>` (after `PUBLIC_URL` when it is set, else a path on this origin), where someone without an API key decides this approval once, until it expires. Anyone holding it can decide: share it only with the approver.',
    ),
});

export const ApprovalParams = z.object({
  run_id: z.string().min(1).max(220),
  step_id: z.string().min(1).max(64),
});

export const ApprovalBody = z
  .object({
    decision: z.enum(['approved', 'rejected']),
    payload: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export const ApprovalAnswerSchema = z.object({
  run_id: z.string(),
  step_id: z.string(),
  decision: z.enum(['approved', 'rejected']),
  decided_at: z.string(),
});
