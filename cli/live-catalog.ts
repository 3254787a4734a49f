/**
 * The skill catalog `workflows validate` compiles against. Live: every skill route in the API's
 * OpenAPI document, each described by its details route (request and workflow-output JSON
 * Schemas, unattended flag, policy), turned back into zod with `z.fromJSONSchema`. Offline:
 * this checkout's own app definitions (activities/apps), loaded in-process.
 */
import { z } from 'zod';
import { createStaticCatalog, type SkillCatalog, type SkillCatalogEntry } from '../definitions/index.js';
import type { SkillDetails, SkillflowClient } from '../sdk/index.js';

/** One catalog entry from a skill's details (what GET .../details answers). */
export function entryFromDetails(details: SkillDetails): SkillCatalogEntry {
  return {
    unattended: details.capabilities.unattended,
    input: z.fromJSONSchema(details.request_schema),
    workflowOutput: z.fromJSONSchema(details.workflow_output_schema),
    // The policy's whole-call limit is also the longest step timeout a definition may ask for.
    maxTimeoutMs: details.execution.timeout_ms,
    maxRetry: {
      maximumAttempts: details.execution.max_attempts,
      maximumIntervalMs: details.execution.max_retry_interval_ms,
    },
  };
}

/** A catalog over skill details. */
export function catalogFromDetails(all: SkillDetails[]): SkillCatalog {
  return createStaticCatalog(
    Object.fromEntries(all.map((d) => [`${d.app_id}.${d.id}`, entryFromDetails(d)])),
  );
}

/** Fetches the live catalog: the skills in the OpenAPI document, then each one's details. */
export async function fetchLiveCatalog(
  client: SkillflowClient,
): Promise<{ catalog: SkillCatalog; skills: number }> {
  const skills = await client.skills.list();
  const details = await Promise.all(skills.map((s) => client.skills.details(s.app_id, s.skill_id)));
  return { catalog: catalogFromDetails(details), skills: details.length };
}

/** The offline catalog: this checkout's app definitions, loaded like the worker loads them. */
export async function loadLocalCatalog(): Promise<SkillCatalog> {
  const [
    { loadRegistry },
    { APPS },
    { catalogFromRegistry },
    { loadConfig },
    { createLogger },
    { staticSecrets },
  ] = await Promise.all([
    import('../activities/registry/registry.js'),
    import('../activities/apps/index.js'),
    import('../activities/registry/catalog.js'),
    import('../lib/config.js'),
    import('../lib/logger.js'),
    import('../lib/secrets.js'),
  ]);
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const registry = await loadRegistry(
    { config, logger: createLogger('silent'), secrets: staticSecrets({}) },
    APPS,
  );
  return catalogFromRegistry(registry);
}
