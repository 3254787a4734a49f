/**
 * The catalog the compiler's tests compile against. Every real skill comes from the registry,
 * loaded from the catalogue (activities/apps/index.ts) exactly as the worker loads it, so the tests see the real input
 * and workflow-output schemas and policy limits and cannot drift from them. One made-up skill,
 * `billing.charge_card`, stands for a skill that may not run unattended (no real one exists).
 */
import { z } from 'zod';
import { catalogFromRegistry } from '../../activities/registry/catalog.js';
import { loadRegistry } from '../../activities/registry/registry.js';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/logger.js';
import { staticSecrets } from '../../lib/secrets.js';
import type { SkillCatalog, SkillCatalogEntry } from '../catalog.js';
import { APPS } from '../../activities/apps/index.js';

const registry = await loadRegistry(
  {
    config: loadConfig({ LOG_LEVEL: 'silent' }),
    logger: createLogger('silent'),
    secrets: staticSecrets({}),
  },
  APPS,
);
const real = catalogFromRegistry(registry);

/** A skill that may not run unattended. */
const CHARGE_CARD: SkillCatalogEntry = {
  unattended: false,
  input: z.strictObject({ amount: z.number(), note: z.string().optional() }),
  workflowOutput: z.object({ charge_id: z.string(), meta: z.record(z.string(), z.unknown()) }),
  maxTimeoutMs: 30_000,
  maxRetry: { maximumAttempts: 3, maximumIntervalMs: 30_000 },
};

/** Builds the test catalog: the registry's skills plus `billing.charge_card`. */
export function createTestCatalog(): SkillCatalog {
  return {
    get: (ref) => (ref === 'billing.charge_card' ? CHARGE_CARD : real.get(ref)),
    list: () => [...real.list(), 'billing.charge_card'].sort(),
  };
}
