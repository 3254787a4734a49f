/** Response shapes of the app and skill discovery routes, built from the registry. */
import { z } from 'zod';
import { USD_PER_MILLION_INPUT_TOKENS } from '../../activities/decision/bounds.js';
import type { Registry } from '../../activities/registry/registry.js';
import type { AppManifest, LoadedSkill, SkillImplementation } from '../../activities/registry/types.js';

export const SkillViewSchema = z.object({
  id: z.string(),
  app_id: z.string(),
  title: z.string(),
  description: z.string(),
  capabilities: z.object({
    mode: z.enum(['sync', 'async']),
    access: z.enum(['read', 'write']),
    unattended: z.boolean(),
    needs_connected_account: z.boolean(),
    needs_approval: z.boolean(),
  }),
  anonymous_access: z.enum(['inline', 'none']),
  pricing: z.object({ credits_per_request: z.number(), notes: z.string().optional() }),
  providers: z.array(z.string()),
  models: z.array(z.string()),
  available: z.boolean(),
});

export const AppViewSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  skills: z.array(SkillViewSchema),
});

export const SkillDetailsSchema = SkillViewSchema.extend({
  request_schema: z
    .record(z.string(), z.unknown())
    .describe(
      'JSON Schema of the direct request body ({ requests: [...] }). This SDK tool schema is the one to use; there is no separate assistant schema.',
    ),
  request_item_schema: z.record(z.string(), z.unknown()).describe('JSON Schema of one item of `requests`.'),
  output_schema: z.record(z.string(), z.unknown()),
  workflow_output_schema: z
    .record(z.string(), z.unknown())
    .describe('What later workflow steps may reference.'),
  defaults: z.record(z.string(), z.unknown()),
  primary_fields: z.array(z.string()),
  execution: z.object({
    available: z.boolean(),
    mode: z.enum(['sync', 'async']),
    anonymous: z.boolean(),
    policy: z.string(),
    timeout_ms: z.number().int(),
    max_attempts: z.number().int(),
    max_retry_interval_ms: z
      .number()
      .int()
      .describe("The policy's longest wait between attempts: a step's `retry` may not ask for more."),
  }),
  decision_pricing: z
    .object({
      usd_per_million_input_tokens: z.number(),
      output_tokens_charged: z.boolean(),
    })
    .nullable()
    .describe(
      'Price of the decision helper this skill may use (relevance ranking); null when it uses none. Each record in GET /v1/usage carries the tokens and cost it paid for.',
    ),
});

export function skillView(skill: LoadedSkill): z.infer<typeof SkillViewSchema> {
  const m = skill.manifest;
  return {
    id: m.id,
    app_id: m.appId,
    title: m.title,
    description: m.description,
    capabilities: {
      mode: m.capabilities.mode,
      access: m.capabilities.access,
      unattended: m.capabilities.unattended,
      needs_connected_account: m.capabilities.needsConnectedAccount,
      needs_approval: m.capabilities.needsApproval,
    },
    anonymous_access: m.anonymousAccess,
    pricing: {
      credits_per_request: m.pricing.creditsPerRequest,
      ...(m.pricing.notes ? { notes: m.pricing.notes } : {}),
    },
    providers: m.providers,
    models: m.models,
    available: skill.impl !== undefined,
  };
}

export function appView(registry: Registry, app: AppManifest): z.infer<typeof AppViewSchema> {
  return {
    id: app.id,
    title: app.title,
    description: app.description,
    skills: app.skills
      .map((s) => registry.get(app.id, s.id))
      .filter((s): s is LoadedSkill => s !== undefined)
      .map(skillView),
  };
}

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;

export function skillDetails(
  skill: LoadedSkill & { impl: SkillImplementation },
): z.infer<typeof SkillDetailsSchema> {
  return {
    ...skillView(skill),
    request_schema: jsonSchema(skill.impl.input, 'input'),
    request_item_schema: jsonSchema(skill.impl.requestItem, 'input'),
    output_schema: jsonSchema(skill.impl.output, 'output'),
    workflow_output_schema: jsonSchema(skill.impl.workflowOutput, 'output'),
    defaults: skill.impl.defaults,
    primary_fields: skill.manifest.primaryFields,
    execution: {
      available: true,
      mode: skill.manifest.capabilities.mode,
      anonymous: skill.manifest.anonymousAccess === 'inline',
      policy: skill.policy.name,
      timeout_ms: skill.policy.activity.scheduleToCloseTimeout,
      max_attempts: skill.policy.activity.retry.maximumAttempts,
      max_retry_interval_ms: skill.policy.activity.retry.maximumInterval,
    },
    decision_pricing: skill.manifest.providers.includes('decision')
      ? { usd_per_million_input_tokens: USD_PER_MILLION_INPUT_TOKENS, output_tokens_charged: false }
      : null,
  };
}
