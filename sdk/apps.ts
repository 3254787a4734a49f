/**
 * Skill calls and discovery. `client.apps.<app>.<skill>(input)` is a Proxy: any property of
 * `apps` is an app id, any property of an app is a skill id in camelCase (`searchDomains`) or
 * snake_case (`search_domains`), both sent as snake_case. Unknown apps and skills therefore work
 * too; the API answers 404 SKILL_NOT_FOUND for ones that do not exist.
 */
import type { AppView, SkillDetails, SkillView } from './generated.js';
import { idempotencyHeaders, seg, type Transport } from './http.js';
import type { SkillCallOptions, SkillCallResponse, SkillInput, TypedApps, UntypedApp } from './types.js';

/** `searchDomains` → `search_domains`; snake_case and kebab-case ids pass through as snake_case. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase();
}

/** A concrete skill-call route of the OpenAPI document. */
const SKILL_ROUTE = /^\/v1\/apps\/([a-z][a-z0-9_]*)\/skills\/([a-z][a-z0-9_]*)$/;

/** Explicit, non-Proxy skill operations. */
export interface SkillsClient {
  /** Every skill the API serves (from its OpenAPI document, /v1/openapi.json). */
  list(): Promise<{ app_id: string; skill_id: string }[]>;
  /** GET /v1/apps/{app}: the app and its skills. */
  app(appId: string): Promise<AppView>;
  /** GET /v1/apps/{app}/skills/{skill}. */
  get(appId: string, skillId: string): Promise<SkillView>;
  /** GET /v1/apps/{app}/skills/{skill}/details: JSON Schemas, defaults, policy. */
  details(appId: string, skillId: string): Promise<SkillDetails>;
  /** POST /v1/apps/{app}/skills/{skill}: the REST body as is (200 or 202 shape). */
  call<O = Record<string, unknown>>(
    appId: string,
    skillId: string,
    input: SkillInput,
    options?: SkillCallOptions,
  ): Promise<SkillCallResponse<O>>;
}

/** Creates `client.skills`. */
export function createSkillsClient(http: Transport): SkillsClient {
  const skillPath = (appId: string, skillId: string) =>
    `/v1/apps/${seg(appId)}/skills/${seg(snakeCase(skillId))}`;
  return {
    async list() {
      const doc = (
        await http.send<{ paths?: Record<string, unknown> }>({ method: 'GET', path: '/v1/openapi.json' })
      ).body;
      return Object.keys(doc.paths ?? {})
        .map((p) => SKILL_ROUTE.exec(p))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => ({ app_id: m[1]!, skill_id: m[2]! }))
        .sort((a, b) => `${a.app_id}.${a.skill_id}`.localeCompare(`${b.app_id}.${b.skill_id}`));
    },
    app: async (appId) => (await http.send<AppView>({ method: 'GET', path: `/v1/apps/${seg(appId)}` })).body,
    get: async (appId, skillId) =>
      (await http.send<SkillView>({ method: 'GET', path: skillPath(appId, skillId) })).body,
    details: async (appId, skillId) =>
      (await http.send<SkillDetails>({ method: 'GET', path: `${skillPath(appId, skillId)}/details` })).body,
    async call<O>(appId: string, skillId: string, input: SkillInput, options: SkillCallOptions = {}) {
      const res = await http.send<SkillCallResponse<O>>({
        method: 'POST',
        path: skillPath(appId, skillId),
        query: { team_id: options.teamId },
        json: input,
        headers: idempotencyHeaders(options.idempotencyKey),
        signal: options.signal,
      });
      return res.body;
    },
  };
}

// Properties that must not look like skills: promise detection, inspection, serialisation.
const NOT_A_SKILL = new Set([
  'then',
  'catch',
  'finally',
  'toJSON',
  'inspect',
  'constructor',
  'valueOf',
  'toString',
]);

/** `client.app(appId)`: one app's skills as methods. */
export function createAppProxy(skills: SkillsClient, appId: string): UntypedApp {
  return new Proxy(
    {},
    {
      get(_target, prop) {
        if (typeof prop !== 'string' || NOT_A_SKILL.has(prop)) return undefined;
        return (input: SkillInput, options?: SkillCallOptions) => skills.call(appId, prop, input, options);
      },
    },
  );
}

/** `client.apps`: every app as a property. */
export function createAppsProxy(skills: SkillsClient): TypedApps {
  const cache = new Map<string, UntypedApp>();
  return new Proxy({} as TypedApps, {
    get(_target, prop) {
      if (typeof prop !== 'string' || NOT_A_SKILL.has(prop)) return undefined;
      let app = cache.get(prop);
      if (!app) cache.set(prop, (app = createAppProxy(skills, snakeCase(prop))));
      return app;
    },
  });
}
