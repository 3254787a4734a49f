/**
 * Typed app and skill definitions. An app is one folder, `activities/apps/<app>/`, whose
 * `app.ts` exports `defineApp({ ... })` over `defineSkill({ ... })` values imported statically
 * from its `skills/` folder; the catalogue (activities/apps/index.ts) is the list of those apps.
 * The type checker follows every skill from the catalogue to its factory.
 */
import type { z } from 'zod';
import type { Config } from '../../lib/config.js';
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
export type SkillFactory<I, O, W, C> = (
  platform: Platform<C>,
  deadlines: SkillDeadlines,
) => SkillImplementation<I, O, W> | Promise<SkillImplementation<I, O, W>>;

/**
 * One skill of the catalogue: its metadata and its factory, with the I/O types erased. `C` is
 * the configuration slice the factory receives.
 */
export interface SkillDefinition<C = unknown> extends SkillMeta {
  create: (platform: Platform<C>, deadlines: SkillDeadlines) => Promise<SkillImplementation>;
}

/** One app of the catalogue, as the registry loads it: given the whole configuration. */
export interface AppDefinition {
  id: string;
  title: string;
  description: string;
  skills: readonly SkillDefinition<Config>[];
  /** The HTTP routes only this app serves (its `routes.ts`), mounted by the API (routes.ts). */
  routes?: AppRoutes;
}

/** An app as written in its `app.ts`: its skills and routes see only the slice `config` selects. */
export interface AppSource<C> {
  id: string;
  title: string;
  description: string;
  /** Selects the configuration the app's skills and routes receive; none when absent. */
  config?: (config: Config) => C;
  skills: readonly SkillDefinition<C>[];
  routes?: AppRoutes<C>;
}

/**
 * Declares one skill. The factory's input, output and workflow-output types are checked
 * against each other here and erased in the result, so apps of any skills share one list.
 */
export function defineSkill<I, O, W, C = unknown>(
  skill: SkillMeta & { create: SkillFactory<I, O, W, C> },
): SkillDefinition<C> {
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

/**
 * Declares one app over its skills. The result takes the whole configuration and hands each
 * skill factory and the routes only the slice the app's `config` selects.
 */
export function defineApp<C = undefined>(app: AppSource<C>): AppDefinition {
  const { config: select, skills, routes, ...meta } = app;
  const slice = (config: Config): C => (select ? select(config) : (undefined as C));
  return {
    ...meta,
    skills: skills.map((skill) => ({
      ...skill,
      create: (platform, deadlines) =>
        skill.create({ ...platform, config: slice(platform.config) }, deadlines),
    })),
    ...(routes
      ? {
          routes: {
            ...(routes.tags ? { tags: routes.tags } : {}),
            plugin: (ctx) => routes.plugin({ ...ctx, config: slice(ctx.config) }),
          },
        }
      : {}),
  };
}
