/**
 * Typed app and skill definitions. An app is one folder, `activities/apps/<app>/`, whose
 * `app.ts` exports `defineApp({ ... })` over `defineSkill({ ... })` values imported statically
 * from its `skills/` folder; the catalogue (activities/apps/index.ts) is the list of those apps.
 * The type checker follows every skill from the catalogue to its factory.
 */
import type { z } from 'zod';
import type { SkillDeadlines } from '../policy.js';
import type { SkillMetaSchema } from './manifest.js';
import type { AppRoutes } from './routes.js';
import type { Platform, SkillImplementation } from './types.js';

/** A skill's metadata as written in its definition (defaults allowed). */
export type SkillMeta = z.input<typeof SkillMetaSchema>;

/**
 * A skill's factory, called once at registry load with the platform and the in-activity
 * deadlines of the skill's policy profile (activities/policy.ts). A factory that throws makes
 * the skill unavailable (it answers 404); the others keep working.
 */
export type SkillFactory<I, O, W> = (
  platform: Platform,
  deadlines: SkillDeadlines,
) => SkillImplementation<I, O, W> | Promise<SkillImplementation<I, O, W>>;

/** One skill of the catalogue: its metadata and its factory, with the I/O types erased. */
export interface SkillDefinition extends SkillMeta {
  create: (platform: Platform, deadlines: SkillDeadlines) => Promise<SkillImplementation>;
}

/** One app of the catalogue. */
export interface AppDefinition {
  id: string;
  title: string;
  description: string;
  skills: readonly SkillDefinition[];
  /** The HTTP routes only this app serves (its `routes.ts`), mounted by the API (routes.ts). */
  routes?: AppRoutes;
}

/**
 * Declares one skill. The factory's input, output and workflow-output types are checked
 * against each other here and erased in the result, so apps of any skills share one list.
 */
export function defineSkill<I, O, W>(skill: SkillMeta & { create: SkillFactory<I, O, W> }): SkillDefinition {
  const { create, ...meta } = skill;
  return {
    ...meta,
    create: async (platform, deadlines) =>
      (await create(platform, deadlines)) as unknown as SkillImplementation,
  };
}

/**
 * The capabilities of a skill that only reads (no side effects outside the service), may run
 * unattended, and needs neither a connected account nor an approval.
 */
export function readOnlyCapabilities(mode: 'sync' | 'async') {
  return {
    mode,
    access: 'read',
    unattended: true,
    needsConnectedAccount: false,
    needsApproval: false,
  } as const;
}

/** Declares one app over its skills. */
export function defineApp(app: AppDefinition): AppDefinition {
  return app;
}
