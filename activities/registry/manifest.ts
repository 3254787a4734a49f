/**
 * zod schema of an app's metadata (what `defineApp` and `defineSkill` declare, without the skill
 * factories) and the manifest types taken from it. The registry parses every app in the
 * catalogue at load, so what the type checker cannot see (identifier syntax, unknown keys from a
 * cast) is reported there and nowhere else; the `policy` field is a profile name of
 * activities/policy.ts.
 */
import { z } from 'zod';
import { PolicyNameSchema } from '../policy.js';
import { RESTRICTED_SCOPES } from '../../lib/keys.js';

const identifier = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be a lower_snake identifier');

/** One skill's metadata, as written in its `defineSkill` call. */
export const SkillMetaSchema = z
  .object({
    id: identifier,
    title: z.string().min(1),
    description: z.string().min(1),
    capabilities: z
      .object({
        mode: z
          .enum(['sync', 'async'])
          .describe(
            'sync: answers within one request; async: long-running, answers with task_id + embed_id.',
          ),
        access: z
          .enum(['read', 'write'])
          .describe('read: no side effects outside the service; write: changes something.'),
        unattended: z.boolean().describe('May run inside a scheduled/unattended workflow.'),
        needsConnectedAccount: z.boolean(),
        needsApproval: z.boolean(),
      })
      .strict(),
    anonymousAccess: z.enum(['inline', 'none']),
    pricing: z
      .object({
        creditsPerRequest: z.number().nonnegative().describe('Credits charged per request item (one group).'),
        freeOverSession: z
          .boolean()
          .optional()
          .describe("Free of credits over a first-party workspace session (an API key's call still pays)."),
        notes: z.string().optional(),
      })
      .strict(),
    providers: z.array(z.string().min(1)).default([]),
    models: z.array(z.string().min(1)).default([]),
    policy: PolicyNameSchema,
    primaryFields: z
      .array(z.string().min(1))
      .default([])
      .describe("Dotted paths of the request item's primary fields (e.g. `query`)."),
    restrictedOptions: z
      .array(
        z
          .object({
            field: identifier.describe('A field of one request item (e.g. `license_policy`).'),
            value: z.string().min(1).describe('The value only approved client flows may send.'),
            scope: z.enum(RESTRICTED_SCOPES).describe('The scope a key needs to send it.'),
          })
          .strict(),
      )
      .default([])
      .describe(
        'Request-item values that need a restricted scope (activities/registry/restricted-options.ts).',
      ),
  })
  .strict();

/** An app's metadata: its id and texts and its skills' metadata. */
export const AppMetaSchema = z
  .object({
    id: identifier,
    title: z.string().min(1),
    description: z.string().min(1),
    skills: z.array(SkillMetaSchema).min(1),
  })
  .strict()
  .transform((app) => ({
    id: app.id,
    title: app.title,
    description: app.description,
    skills: app.skills.map((s) => ({ ...s, appId: app.id })),
  }));

/** An app as declared in its definition, parsed. */
export type AppManifest = z.output<typeof AppMetaSchema>;
/** One skill's metadata as declared in its definition, with its app id. */
export type SkillManifest = AppManifest['skills'][number];
