/**
 * zod schemas of the definition's shape. They check structure and types only; meaning (ids,
 * references, cron, skills) is checked by the compiler. Parts are validated separately so that
 * one bad step does not hide problems in the others.
 */
import { z } from 'zod';
import { SCHEDULE_OVERLAPS } from '../runtime/plan.js';

/** Run input types a manual trigger may declare. */
export const RUN_INPUT_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object'] as const;

/** A declared run input. */
export const runInputSchema = z.strictObject({
  type: z.enum(RUN_INPUT_TYPES),
  required: z.boolean().optional(),
  default: z.unknown().optional(),
  description: z.string().max(1000).optional(),
});

/** `start_when.manual`; `manual:` with no value means `manual: {}`. */
export const manualSchema = z.strictObject({
  inputs: z.record(z.string(), runInputSchema).optional(),
});

/** `start_when.schedule` (`catchup_window`'s bounds are checked by the compiler, at the field). */
export const scheduleSchema = z.strictObject({
  cron: z.string().optional(),
  every: z.string().optional(),
  timezone: z.string(),
  overlap: z.enum(SCHEDULE_OVERLAPS).optional(),
  catchup_window: z.string().optional(),
});

/** An event name: lower case, dots, dashes and underscores, as `POST /v1/events` sends it. */
export const EVENT_NAME_PATTERN = /^[a-z][a-z0-9_.-]{0,127}$/;

/** `start_when.event`: every event of this name the owner sends starts a run; its data are the run inputs. */
export const eventTriggerSchema = z.strictObject({
  name: z.string(),
  inputs: z.record(z.string(), runInputSchema).optional(),
});

/** `start_when.webhook`: the run inputs a signed `POST /v1/hooks/{hook_id}` body must fit. */
export const webhookTriggerSchema = z.strictObject({
  inputs: z.record(z.string(), runInputSchema).optional(),
});

/** `start_when`. */
export const startWhenSchema = z.strictObject({
  manual: manualSchema.nullable().optional(),
  schedule: scheduleSchema.optional(),
  event: eventTriggerSchema.optional(),
  webhook: webhookTriggerSchema.nullable().optional(),
});

/** `send_chat_message`. */
export const chatActionSchema = z.strictObject({
  title: z.string(),
  message: z.string(),
  chat_id: z.string().optional(),
});

/** Answer types of a `decide` step. */
export const DECISION_TYPES = ['choice', 'noul', 'score'] as const;

/**
 * `decide`: one bounded question with a typed answer. `fallback` is checked against `type` by
 * the compiler (so its diagnostic points at it).
 */
export const decideSchema = z.strictObject({
  type: z.enum(DECISION_TYPES),
  question: z.string().min(1).max(2000),
  options: z.array(z.string().min(1).max(200)).max(20).optional(),
  context: z.string().optional(),
  fallback: z.union([z.string(), z.number(), z.boolean()]),
  min_confidence: z.number().min(0).max(1).optional(),
});

/** `wait`: exactly one of `duration` and `until` (checked by the compiler, at the field). */
export const waitSchema = z.strictObject({
  duration: z.string().optional(),
  until: z.string().optional(),
});

/** `fail`: the author's own error code and message template. */
export const failSchema = z.strictObject({
  code: z.string(),
  message: z.string().min(1).max(2000),
});

/** `retry`: narrows the step's policy profile (its bounds are checked by the compiler). */
export const retrySchema = z.strictObject({
  max_attempts: z.number().int().min(1).max(10).optional(),
  initial_interval: z.string().optional(),
  backoff: z.number().min(1).max(4).optional(),
});

/** `for_each`: its inner steps are validated one by one, like the top level's. */
export const forEachSchema = z.strictObject({
  items: z.unknown(),
  concurrency: z.number().int().min(1).max(50).optional(),
  steps: z.array(z.unknown()).min(1).max(20),
});

/** `parallel`: 2-20 inner steps, validated one by one. */
export const parallelSchema = z.strictObject({
  steps: z.array(z.unknown()).min(2).max(20),
});

/** `use_workflow`: another definition of the same owner, optionally pinned to a version. */
export const useWorkflowSchema = z.strictObject({
  workflow: z.string().regex(/^wf_[a-z0-9_]{1,64}$/, 'must be a workflow definition id (wf_...)'),
  // A stored version number is a 32-bit integer.
  version: z.number().int().min(1).max(2_147_483_647).optional(),
  inputs: z.record(z.string(), z.unknown()).optional(),
});

/** `wait_for_approval`: a person decides, with a typed payload, before the timeout. */
export const approvalSchema = z.strictObject({
  title: z.string().min(1),
  payload: z.record(z.string(), runInputSchema).optional(),
  timeout: z.string(),
  on_timeout: z.enum(['fail', 'continue']).optional(),
});

/** `wait_for_event`: the run waits until the owner sends a matching event, or the timeout. */
export const eventWaitSchema = z.strictObject({
  name: z.string(),
  match: z.record(z.string(), z.string()).optional(),
  timeout: z.string(),
  on_timeout: z.enum(['fail', 'continue']).optional(),
});

/** One step, before the exactly-one-action rule is applied. */
export const stepSchema = z.strictObject({
  id: z.string(),
  use_app_skill: z.string().optional(),
  input: z.record(z.string(), z.unknown()).optional(),
  send_chat_message: chatActionSchema.optional(),
  decide: decideSchema.optional(),
  wait: waitSchema.optional(),
  fail: failSchema.optional(),
  for_each: forEachSchema.optional(),
  on_error: z.array(z.unknown()).min(1).max(20).optional(),
  parallel: parallelSchema.optional(),
  use_workflow: useWorkflowSchema.optional(),
  wait_for_approval: approvalSchema.optional(),
  wait_for_event: eventWaitSchema.optional(),
  if: z.string().optional(),
  continue_on_error: z.boolean().optional(),
  timeout: z.string().optional(),
  retry: retrySchema.optional(),
});

/** The top level; `start_when` and `steps[]` are validated with their own schemas. */
/** The most runs of one definition (per key) that may run at once. */
export const MAX_CONCURRENCY_LIMIT = 1000;

/** `concurrency`: at most `limit` runs of the definition (per rendered `key`) have a step running. */
export const concurrencySchema = z.strictObject({
  limit: z.number().int().min(1).max(MAX_CONCURRENCY_LIMIT),
  key: z.string().min(1).max(500).optional(),
});

export const definitionSchema = z.strictObject({
  title: z.string().min(1).max(200),
  description: z.string().max(4000).optional(),
  start_when: z.unknown(),
  steps: z.array(z.unknown()).min(1),
  /** What a parent's `use_workflow` step receives: names to templates or whole-string references. */
  outputs: z.record(z.string(), z.string()).optional(),
  concurrency: concurrencySchema.optional(),
});

export type StartWhen = z.infer<typeof startWhenSchema>;
export type StepSource = z.infer<typeof stepSchema>;
export type DecideSource = z.infer<typeof decideSchema>;
export type WaitSource = z.infer<typeof waitSchema>;
export type FailSource = z.infer<typeof failSchema>;
export type RetrySource = z.infer<typeof retrySchema>;
export type ForEachSource = z.infer<typeof forEachSchema>;
export type UseWorkflowSource = z.infer<typeof useWorkflowSchema>;
export type ApprovalSource = z.infer<typeof approvalSchema>;
export type EventWaitSource = z.infer<typeof eventWaitSchema>;
export type RunInputSource = z.infer<typeof runInputSchema>;
