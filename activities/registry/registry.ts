/**
 * The app and skill registry, built at startup from a catalogue of app definitions
 * (activities/apps/index.ts, or a test's own list). An app whose metadata is invalid is reported
 * and skipped; a skill whose factory throws is reported and answers 404; the others keep
 * working.
 */
import { formatPath } from '../../lib/errors/skillflow-error.js';
import { resolvePolicy } from '../policy.js';
import type { AppDefinition, BoundSkill, OpenedApp } from './define.js';
import { AppMetaSchema } from './manifest.js';
import type { MountableRoutes } from './routes.js';
import type { AppManifest, LoadedSkill, RegistryContext, SkillImplementation } from './types.js';

export interface LoadProblem {
  /** The app's id as declared (possibly the invalid one). */
  app: string;
  skill?: string;
  message: string;
}

export interface Registry {
  apps: AppManifest[];
  /** The HTTP routes of the loaded apps that serve their own, in app id order. */
  routes: MountableRoutes[];
  problems: LoadProblem[];
  /** A loaded skill, or undefined. Hyphens in ids resolve to underscores. */
  get(appId: string, skillId: string): LoadedSkill | undefined;
  /** Only skills whose implementation loaded. */
  available(appId: string, skillId: string): (LoadedSkill & { impl: SkillImplementation }) | undefined;
  app(appId: string): AppManifest | undefined;
  all(): LoadedSkill[];
  /**
   * The services `app` built when this registry opened it (`defineApp({ services })`), typed by
   * its definition; undefined when the catalogue does not hold that definition or it failed to
   * open. The composition root hands them on to the platform parts that use the app.
   */
  servicesOf<S>(app: AppDefinition<S>): S | undefined;
}

/** `search-domains` → `search_domains`: hyphens in URLs resolve to underscores. */
export function normaliseId(id: string): string {
  return id.replaceAll('-', '_');
}

/** The app's metadata without its factories, parsed; throws the first issue with its path. */
function parseApp(app: AppDefinition): AppManifest {
  const { open: _open, ...meta } = app;
  const parsed = AppMetaSchema.safeParse(meta);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  throw new Error(`${formatPath(first?.path ?? [])}: ${first?.message ?? 'invalid'}`);
}

async function createImplementation(
  skill: BoundSkill,
  ...args: Parameters<BoundSkill['create']>
): Promise<SkillImplementation> {
  const impl = (await skill.create(...args)) as SkillImplementation | undefined;
  if (!impl || typeof impl.run !== 'function')
    throw new Error('create() did not return a skill implementation');
  return impl;
}

/** Builds the app's services; a failure is the app's load problem (its message's first line). */
function openApp(app: AppDefinition, platform: RegistryContext): OpenedApp {
  try {
    return app.open(platform.config, { store: platform.store });
  } catch (err) {
    const message = err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
    throw new Error(`services: ${message}`);
  }
}

/**
 * Loads every app of `apps`, in id order. Never throws for a bad app or skill: it reports it.
 * Two apps with one id are a problem too: the first one is kept.
 */
export async function loadRegistry(
  platform: RegistryContext,
  apps: readonly AppDefinition[],
): Promise<Registry> {
  const manifests: AppManifest[] = [];
  const routes: MountableRoutes[] = [];
  const opened = new Map<AppDefinition, OpenedApp>();
  const problems: LoadProblem[] = [];
  const skills = new Map<string, LoadedSkill>();
  for (const app of [...apps].sort((a, b) => a.id.localeCompare(b.id))) {
    let manifest: AppManifest;
    let open: OpenedApp;
    try {
      if (manifests.some((m) => m.id === app.id)) throw new Error('id: another app has this id');
      manifest = parseApp(app);
      open = openApp(app, platform);
    } catch (err) {
      problems.push({ app: app.id, message: err instanceof Error ? err.message : String(err) });
      continue;
    }
    manifests.push(manifest);
    opened.set(app, open);
    if (open.routes) routes.push(open.routes);
    for (const [i, sk] of manifest.skills.entries()) {
      const ref = `${sk.appId}.${sk.id}`;
      const policy = resolvePolicy(sk.policy);
      let impl: SkillImplementation | undefined;
      let loadError: string | undefined;
      try {
        impl = await createImplementation(open.skills[i]!, platform, policy.deadlines);
      } catch (err) {
        loadError = err instanceof Error ? err.message.split('\n')[0] : String(err);
        problems.push({ app: app.id, skill: ref, message: loadError ?? 'failed to load' });
        platform.logger.error(
          { skill: ref, err: loadError },
          'skill implementation failed to load; it will answer 404',
        );
      }
      skills.set(ref, { manifest: sk, policy, impl, loadError });
    }
  }
  const get = (appId: string, skillId: string) => skills.get(`${normaliseId(appId)}.${normaliseId(skillId)}`);
  return {
    apps: manifests,
    routes,
    problems,
    get,
    available(appId, skillId) {
      const s = get(appId, skillId);
      return s?.impl ? (s as LoadedSkill & { impl: SkillImplementation }) : undefined;
    },
    app: (appId) => manifests.find((a) => a.id === normaliseId(appId)),
    all: () => [...skills.values()],
    servicesOf: <S>(app: AppDefinition<S>) => opened.get(app)?.services as S | undefined,
  };
}
