/**
 * zod schema of an app definition file (activities/apps/<app>/app.yaml) and the manifest types
 * taken from it. Parsing a file yields the camelCase {@link AppManifest} the platform reads; the
 * `policy` field is typed as a profile name of activities/policy.ts, so an unknown profile
 * fails here, at registry load, and nowhere else.
 */
import { z } from 'zod';
import { PolicyNameSchema } from '../policy.js';

const identifier = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be a lower_snake identifier');

const SkillFileSchema = z
  .object({
    id: identifier,
    title: z.string().min(1),
    description: z.string().min(1),
    implementation: z
      .string()
      .regex(
        /^(\.\.?\/)*[a-z0-9_-]+(\/[a-z0-9_-]+)*$/,
        'must be a module path relative to app.yaml, without extension',
      )
      .describe('Module path relative to app.yaml, without extension, exporting `createSkill`.'),
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
        needs_connected_account: z.boolean(),
        needs_approval: z.boolean(),
      })
      .strict(),
    anonymous_access: z.enum(['inline', 'none']),
    pricing: z
      .object({
        credits_per_request: z
          .number()
          .nonnegative()
          .describe('Credits charged per request item (one group).'),
        notes: z.string().optional(),
      })
      .strict(),
    providers: z.array(z.string().min(1)).default([]),
    models: z.array(z.string().min(1)).default([]),
    policy: PolicyNameSchema,
    primary_fields: z
      .array(z.string().min(1))
      .default([])
      .describe("Dotted paths of the request item's primary fields (e.g. `query`)."),
  })
  .strict();

/** One skill of a parsed app file, camelCased, with its app id. */
function toSkillManifest(appId: string, s: z.output<typeof SkillFileSchema>) {
  return {
    id: s.id,
    appId,
    title: s.title,
    description: s.description,
    implementation: s.implementation,
    capabilities: {
      mode: s.capabilities.mode,
      access: s.capabilities.access,
      unattended: s.capabilities.unattended,
      needsConnectedAccount: s.capabilities.needs_connected_account,
      needsApproval: s.capabilities.needs_approval,
    },
    anonymousAccess: s.anonymous_access,
    pricing: {
      creditsPerRequest: s.pricing.credits_per_request,
      ...(s.pricing.notes ? { notes: s.pricing.notes } : {}),
    },
    providers: s.providers,
    models: s.models,
    policy: s.policy,
    primaryFields: s.primary_fields,
  };
}

/** An app definition file, parsed into the platform's {@link AppManifest}. */
export const AppFileSchema = z
  .object({
    id: identifier,
    title: z.string().min(1),
    description: z.string().min(1),
    skills: z.array(SkillFileSchema).min(1),
  })
  .strict()
  .transform((file) => ({
    id: file.id,
    title: file.title,
    description: file.description,
    skills: file.skills.map((s) => toSkillManifest(file.id, s)),
  }));

/** An app as declared in its definition file. */
export type AppManifest = z.output<typeof AppFileSchema>;
/** One skill's metadata as declared in its app's definition file. */
export type SkillManifest = AppManifest['skills'][number];
