/**
 * Builds, in-process, exactly what the API serves at /v1/openapi.json (the same `buildApp` over
 * the real app definitions in activities/apps) plus each skill's output schema and mode (the
 * same values as the details route). No server or Temporal is started (the Temporal handle is an
 * inert stand-in that fails loudly if used); the platform store is an in-memory PGlite.
 */
import { buildApp } from '../../api/app.js';
import { apiDeps } from '../../api/main.js';
import { skillDetails } from '../../api/routes/skill-views.js';
import { APPS } from '../../activities/apps/index.js';
import type { AppDefinition } from '../../activities/registry/define.js';
import { loadConfig } from '../../lib/config.js';
import { parseKeyring } from '../../lib/crypto/keyring.js';
import { createLogger } from '../../lib/logger.js';
import { staticSecrets } from '../../lib/secrets.js';
import { openStore } from '../../lib/store/db.js';
import type { TemporalClient } from '../../lib/temporal/client.js';
import { createPlatform } from '../../platform/create-platform.js';
import type { JsonSchema } from './json-schema-to-ts.js';

/** What the generator needs to know about one loaded skill. */
export interface SkillSchemaInfo {
  appId: string;
  skillId: string;
  mode: 'sync' | 'async';
  title: string;
  /** JSON Schema of the full output (the REST body without previews and call_id). */
  output: JsonSchema;
}

/** The OpenAPI document and the skills it was built from. */
export interface ApiDocument {
  openapi: { paths: Record<string, Record<string, unknown>>; info: { version: string } };
  skills: SkillSchemaInfo[];
}

const inert = <T>(what: string): T =>
  new Proxy(
    {},
    {
      get: (_t, prop) => {
        if (prop === 'then') return undefined;
        throw new Error(`sdk codegen: ${what}.${String(prop)} is not available while generating types`);
      },
    },
  ) as T;

/** Builds the document with a fixed server URL so the output never depends on the environment. */
export async function buildApiDocument(apps: readonly AppDefinition[] = APPS): Promise<ApiDocument> {
  const config = loadConfig({ LOG_LEVEL: 'silent', PUBLIC_URL: 'http://127.0.0.1:8080' });
  // The composition root over a fixed key and a real (in-memory) store: route plugins may
  // prepare statements or limiters at build time.
  const platform = await createPlatform(config, {
    apps,
    logger: createLogger('silent'),
    keyring: parseKeyring('codegen:' + Buffer.alloc(32, 1).toString('base64'), 'env'),
    secrets: staticSecrets({}),
    store: await openStore({ pgliteDir: 'memory://' }),
    temporal: inert<TemporalClient>('temporal'),
  });
  const { registry } = platform;
  const app = await buildApp(apiDeps(platform));
  try {
    await app.ready();
    const openapi = app.swagger() as unknown as ApiDocument['openapi'];
    const skills: SkillSchemaInfo[] = [];
    for (const skill of registry.all()) {
      if (!skill.impl) continue;
      const details = skillDetails({ ...skill, impl: skill.impl });
      skills.push({
        appId: skill.manifest.appId,
        skillId: skill.manifest.id,
        mode: skill.manifest.capabilities.mode,
        title: skill.manifest.title,
        output: details.output_schema,
      });
    }
    return { openapi, skills };
  } finally {
    await app.close();
    await platform.close();
  }
}
