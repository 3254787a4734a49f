/**
 * A small in-memory catalog for tests: `hosting.search_domains` shaped like the spec's
 * workflow-visible output, and `billing.charge_card`, which may not run unattended.
 */
import { z } from 'zod';
import { createStaticCatalog, type SkillCatalog } from '../catalog.js';

const requestItem = z.strictObject({
  id: z.string().optional(),
  query: z.string().min(1),
  tlds: z.array(z.string()).optional(),
  country: z.string().length(2).optional(),
  currency: z.enum(['EUR', 'USD']).optional(),
  max_results: z.int().min(1).max(20).optional(),
  availability: z.enum(['prefer_available', 'available_only', 'all']).optional(),
  relevance_criteria: z.string().optional(),
});

/** The test catalog's domain search output. */
export const searchDomainsOutput = z.object({
  results: z.array(
    z.object({
      domain: z.string(),
      fqdn: z.string(),
      availability: z.enum(['available', 'unavailable']),
      premium: z.boolean(),
      registration: z.object({ currency: z.string(), price_after_taxes: z.number() }).nullable(),
    }),
  ),
  result_count: z.int(),
  raw: z.object({ results: z.array(z.unknown()) }),
});

/** Builds the test catalog. */
export function createTestCatalog(): SkillCatalog {
  return createStaticCatalog({
    'hosting.search_domains': {
      unattended: true,
      input: z.strictObject({ requests: z.array(requestItem).min(1).max(5) }),
      workflowOutput: searchDomainsOutput,
      maxTimeoutMs: 60_000,
    },
    'billing.charge_card': {
      unattended: false,
      input: z.strictObject({ amount: z.number(), note: z.string().optional() }),
      workflowOutput: z.object({ charge_id: z.string(), meta: z.record(z.string(), z.unknown()) }),
      maxTimeoutMs: 30_000,
    },
  });
}
