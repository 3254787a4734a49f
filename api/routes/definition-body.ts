/**
 * The JSON Schema of a workflow definition as the API documents it: the bodies of
 * `POST /v1/workflows` and `PUT /v1/workflows/{id}`. Built from the language's own zod schemas
 * (definitions/schema/definition-schema.ts) with what the compiler enforces that JSON Schema can
 * say: required fields, exactly one trigger, exactly one action per step, the loaded skills,
 * name patterns and size limits. What it cannot say (references between steps, unique step ids,
 * templates, cron, durations, a skill's own input rules, the 64 KiB source limit) is the
 * compiler's `422 INVALID_DEFINITION` with diagnostics.
 */
import { z } from 'zod';
import { LIMITS } from '../../definitions/limits.js';
import { NAME_PATTERN } from '../../definitions/runtime/names.js';
import {
  decideSchema,
  EVENT_NAME_PATTERN,
  RUN_INPUT_TYPES,
  scheduleSchema,
} from '../../definitions/schema/definition-schema.js';

/** A step id or run input name: the name pattern, without the reserved names. */
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

const StepBase = {
  id: Name.describe('Unique within the definition.'),
  if: z.string().max(LIMITS.maxConditionChars).optional(),
  continue_on_error: z.boolean().optional(),
  timeout: z.string().optional().describe('A duration such as `30s`, within the action policy.'),
};

/** A definition's top level, for the given loaded skills (`<app>.<skill>`). */
export function definitionJsonSchema(skills: readonly string[]): Record<string, unknown> {
  const steps = [
    z.strictObject({
      ...StepBase,
      use_app_skill: skills.length > 0 ? z.enum(skills as [string, ...string[]]) : z.never(),
      input: z.record(z.string(), z.unknown()).optional().describe("The skill's input; templates allowed."),
    }),
    z.strictObject({
      ...StepBase,
      send_chat_message: z.strictObject({ title: Template, message: Template, chat_id: Template.optional() }),
    }),
    z.strictObject({ ...StepBase, decide: decideSchema }),
  ];
  const definition = z.strictObject({
    title: z.string().min(1).max(200),
    description: z.string().max(4000).optional(),
    start_when: Trigger,
    steps: z
      .array(z.union(steps))
      .min(1)
      .max(LIMITS.maxSteps)
      .describe('Each step has exactly one action: use_app_skill, send_chat_message or decide.'),
  });
  const { $schema: _, ...schema } = z.toJSONSchema(definition, { io: 'input', unrepresentable: 'any' });
  return schema;
}
