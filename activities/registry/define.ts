/**
 * Typed app and skill definitions. An app is one folder, `activities/apps/<app>/`, whose
 * `app.ts` exports `defineApp({ ... })` over `defineSkill({ ... })` values imported statically
 * from its `skills/` folder; the catalogue (activities/apps/index.ts) is the list of those apps.
 * The type checker follows every skill from the catalogue to its factory.
 */
import type { z } from 'zod';
import type { Config } from '../../lib/config.js';
import type { Store } from '../../lib/store/db.js';
import type { SkillDeadlines } from '../policy.js';
import type { SkillMetaSchema } from './manifest.js';
import type { AppRoutes, MountableRoutes } from './routes.js';
import type { Platform, RegistryContext, SkillImplementation } from './types.js';

/** A skill's metadata as written in its definition (defaults allowed). */
export type SkillMeta = z.input<typeof SkillMetaSchema>;

/**
 * A skill's factory, called once at registry load with the platform (its app's configuration
 * slice and services) and the in-activity deadlines of the skill's policy profile
 * (activities/policy.ts). A factory that throws makes the skill unavailable (it answers 404); the
 * others keep working.
 */
export type SkillFactory<I, O, W, C, S> = (
  platform: Platform<C, S>,
  deadlines: SkillDeadlines,
) => SkillImplementation<I, O, W> | Promise<SkillImplementation<I, O, W>>;

/**
 * One skill of the catalogue: its metadata and its factory, with the I/O types erased. `C` is
 * the configuration slice and `S` the services the factory receives.
 */
export interface SkillDefinition<C = unknown, S = undefined> extends SkillMeta {
  create: (platform: Platform<C, S>, deadlines: SkillDeadlines) => Promise<SkillImplementation>;
}

/**
 * One app as the registry opens it, once per registry: its services built, its skills' factories
 * and its routes bound to its configuration slice and those services.
 */
export interface OpenedApp<S = unknown> {
  services: S;
  skills: readonly BoundSkill[];
  routes?: MountableRoutes;
}

/** A skill of an opened app: its factory takes the registry's context (the whole configuration). */
export interface BoundSkill extends SkillMeta {
  create: (context: RegistryContext, deadlines: SkillDeadlines) => Promise<SkillImplementation>;
}

/**
 * One app of the catalogue, as the registry loads it: its metadata, and {@link AppDefinition.open}
 * to build it from the whole configuration. `S` is the type of its services, so the composition
 * root can hand them on typed (`registry.servicesOf(app)`).
 */
export interface AppDefinition<S = unknown> {
  id: string;
  title: string;
  description: string;
  skills: readonly SkillMeta[];
  /** Builds the app's services from its slice of `config` and binds its skills and routes to them. */
  open: (config: Config, parts?: AppServiceParts) => OpenedApp<S>;
}

/** The process's shared parts an app's services may use. */
export interface AppServiceParts {
  /**
   * The platform store, for state every process must share (the encyclopedia's outbound
   * budget, concurrency bound and cool-down); absent in some tests, which then keep it in memory.
   */
  store?: Store | undefined;
}

/** An app as written in its `app.ts`: its skills and routes see only the slice `config` selects. */
export interface AppSource<C, S> {
  id: string;
  title: string;
  description: string;
  /** Selects the configuration the app's skills and routes receive; none when absent. */
  config?: (config: Config) => C;
  /**
   * Builds the app's own long-lived parts (an upstream client, its cache, its outbound budget)
   * from its slice (and the process's shared parts), once per registry; its skills and routes
   * receive the result as `services`.
   */
  services?: (config: C, parts: AppServiceParts) => S;
  skills: readonly SkillDefinition<C, S>[];
  routes?: AppRoutes<C, S>;
}

/**
 * Declares one skill. The factory's input, output and workflow-output types are checked
 * against each other here and erased in the result, so apps of any skills share one list.
 */
export function defineSkill<I, O, W, C = unknown, S = undefined>(
  skill: SkillMeta & { create: SkillFactory<I, O, W, C, S> },
): SkillDefinition<C, S> {
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
 * Declares one app over its skills. The result takes the whole configuration when opened and
 * hands each skill factory and the routes only the slice the app's `config` selects, and the
 * services its `services` built from that slice.
 */
export function defineApp<C = undefined, S = undefined>(app: AppSource<C, S>): AppDefinition<S> {
  const { config: select, services: build, skills, routes, ...meta } = app;
  return {
    ...meta,
    skills: skills.map(({ create: _create, ...skill }) => skill),
    open: (whole, parts = {}) => {
      const config = select ? select(whole) : (undefined as C);
      const services = build ? build(config, parts) : (undefined as S);
      return {
        services,
        skills: skills.map((skill) => ({
          ...skill,
          create: (context, deadlines) =>
            // The conditional type of `services` cannot be narrowed for a generic S.
            skill.create({ ...context, config, services } as unknown as Platform<C, S>, deadlines),
        })),
        ...(routes
          ? {
              routes: {
                ...(routes.tags ? { tags: routes.tags } : {}),
                plugin: (parts) => routes.plugin({ ...parts, config, services }),
              },
            }
          : {}),
      };
    },
  };
}
