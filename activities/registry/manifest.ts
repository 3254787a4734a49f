/** zod schema of an app definition file (activities/apps/<app>/app.yaml). */
import { z } from 'zod';
import { isPolicyName } from '../policy.js';
import type { AppManifest } from './types.js';

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
      ),
    capabilities: z
      .object({
        mode: z.enum(['sync', 'async']),
        access: z.enum(['read', 'write']),
        unattended: z.boolean(),
        needs_connected_account: z.boolean(),
        needs_approval: z.boolean(),
      })
      .strict(),
    anonymous_access: z.enum(['inline', 'none']),
    pricing: z
      .object({ credits_per_request: z.number().nonnegative(), notes: z.string().optional() })
      .strict(),
    providers: z.array(z.string().min(1)).default([]),
    models: z.array(z.string().min(1)).default([]),
    policy: z.string().refine(isPolicyName, 'must name a profile in activities/policy.ts'),
    primary_fields: z.array(z.string().min(1)).default([]),
  })
  .strict();

export const AppFileSchema = z
  .object({
    id: identifier,
    title: z.string().min(1),
    description: z.string().min(1),
    skills: z.array(SkillFileSchema).min(1),
  })
  .strict();

export function toAppManifest(file: z.infer<typeof AppFileSchema>): AppManifest {
  return {
    id: file.id,
    title: file.title,
    description: file.description,
    skills: file.skills.map((s) => ({
      id: s.id,
      appId: file.id,
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
    })),
  };
}
