/**
 * The app and skill registry, loaded at startup from app definition files. A skill whose
 * implementation fails to load is reported and answers 404 (spec 4.1); the others keep working.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { formatPath } from '../../lib/errors/skillflow-error.js';
import { resolvePolicy, type SkillDeadlines } from '../policy.js';
import { AppFileSchema } from './manifest.js';
import type { AppManifest, CreateSkill, LoadedSkill, Platform, SkillImplementation } from './types.js';

export interface LoadProblem {
  file: string;
  skill?: string;
  message: string;
}

export interface Registry {
  apps: AppManifest[];
  problems: LoadProblem[];
  /** A loaded skill, or undefined. Hyphens in ids resolve to underscores. */
  get(appId: string, skillId: string): LoadedSkill | undefined;
  /** Only skills whose implementation loaded. */
  available(appId: string, skillId: string): (LoadedSkill & { impl: SkillImplementation }) | undefined;
  app(appId: string): AppManifest | undefined;
  all(): LoadedSkill[];
}

/** `search-domains` → `search_domains` (spec 4.1: hyphens in URLs resolve to underscores). */
export function normaliseId(id: string): string {
  return id.replaceAll('-', '_');
}

export const ACTIVITIES_DIR = path.resolve(import.meta.dirname, '..');

async function loadImplementation(
  appFile: string,
  modulePath: string,
  platform: Platform,
  deadlines: SkillDeadlines,
): Promise<SkillImplementation> {
  const file = path.resolve(path.dirname(appFile), `${modulePath}.ts`);
  const mod = (await import(pathToFileURL(file).href)) as { createSkill?: unknown };
  if (typeof mod.createSkill !== 'function') throw new Error('module does not export createSkill(platform)');
  const impl = (await (mod.createSkill as CreateSkill)(platform, deadlines)) as
    SkillImplementation | undefined;
  if (!impl || typeof impl.run !== 'function')
    throw new Error('createSkill() did not return a skill implementation');
  return impl;
}

/** Loads every `<appsDir>/<app>/app.yaml`. Never throws for a bad app or skill: it reports it. */
export async function loadRegistry(
  platform: Platform,
  appsDir = path.join(ACTIVITIES_DIR, 'apps'),
): Promise<Registry> {
  const apps: AppManifest[] = [];
  const problems: LoadProblem[] = [];
  const skills = new Map<string, LoadedSkill>();
  const dirs = existsSync(appsDir)
    ? readdirSync(appsDir, { withFileTypes: true }).filter((d) => d.isDirectory())
    : [];
  for (const dir of dirs.sort((a, b) => a.name.localeCompare(b.name))) {
    const file = path.join(appsDir, dir.name, 'app.yaml');
    if (!existsSync(file)) continue;
    const rel = path.relative(path.dirname(ACTIVITIES_DIR), file);
    let manifest: AppManifest;
    try {
      const parsed = AppFileSchema.safeParse(parseYaml(readFileSync(file, 'utf8')));
      if (!parsed.success) {
        const first = parsed.error.issues[0];
        throw new Error(`${formatPath(first?.path ?? [])}: ${first?.message ?? 'invalid'}`);
      }
      manifest = parsed.data;
    } catch (err) {
      problems.push({ file: rel, message: err instanceof Error ? err.message : String(err) });
      continue;
    }
    apps.push(manifest);
    for (const sk of manifest.skills) {
      const policy = resolvePolicy(sk.policy);
      let impl: SkillImplementation | undefined;
      let loadError: string | undefined;
      try {
        impl = await loadImplementation(file, sk.implementation, platform, policy.deadlines);
      } catch (err) {
        loadError = err instanceof Error ? err.message.split('\n')[0] : String(err);
        problems.push({ file: rel, skill: `${sk.appId}.${sk.id}`, message: loadError ?? 'failed to load' });
        platform.logger.error(
          { skill: `${sk.appId}.${sk.id}`, err: loadError },
          'skill implementation failed to load; it will answer 404',
        );
      }
      skills.set(`${sk.appId}.${sk.id}`, { manifest: sk, policy, impl, loadError });
    }
  }
  const get = (appId: string, skillId: string) => skills.get(`${normaliseId(appId)}.${normaliseId(skillId)}`);
  return {
    apps,
    problems,
    get,
    available(appId, skillId) {
      const s = get(appId, skillId);
      return s?.impl ? (s as LoadedSkill & { impl: SkillImplementation }) : undefined;
    },
    app: (appId) => apps.find((a) => a.id === normaliseId(appId)),
    all: () => [...skills.values()],
  };
}
