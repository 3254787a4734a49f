import { parseOrThrow } from '../../../../../lib/errors/skillflow-error.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { candidate, eurPrices } from './fixtures.test-helpers.js';
import { prepareGroups, type PreparedGroup, SearchDomainsInputSchema } from './input.js';
import {
  buildGroupOutput,
  buildGroupPool,
  failedGroupOutput,
  GroupOutputSchema,
  toWorkflowOutput,
  WorkflowOutputSchema,
} from './output.js';

const CTX = {
  currency: 'EUR',
  checkedAt: '2025-03-01T12:00:00.000Z',
  shopOrigin: 'https://shop.example',
} as const;

function groups(...requests: Record<string, unknown>[]): PreparedGroup[] {
  return prepareGroups(parseOrThrow(SearchDomainsInputSchema, { requests }));
}

describe('buildGroupOutput', () => {
  it('echoes id, country DE and currency, and selects within the checked pool', () => {
    const [g] = groups({ id: 'g1', query: 'cedar', tlds: ['com', 'net'], max_results: 2 });
    const pool = buildGroupPool(
      g!,
      [
        candidate('cedar.com', { availability: 'unavailable' }),
        candidate('cedar.app'),
        candidate('cedar.net', { prices: eurPrices() }),
        candidate('getcedar.com'),
      ],
      CTX,
    );
    const out = buildGroupOutput({ group: g!, pool, outcome: undefined });
    expect(out).toMatchObject({
      id: 'g1',
      query: 'cedar',
      country: 'DE',
      currency: 'EUR',
      relevance_applied: { status: 'not_requested', evaluated: 0, removed: 0 },
      warnings: [],
      partial: false,
      error: null,
    });
    expect(out).not.toHaveProperty('searched_query');
    expect(out.checked_results.map((r) => r.domain)).toEqual(['cedar.com', 'cedar.net', 'getcedar.com']);
    expect(out.results.map((r) => r.domain)).toEqual(['cedar.net', 'getcedar.com']);
    expect(GroupOutputSchema.parse(out)).toEqual(out);
  });

  it('reports the reduced keyword, currency mismatches and a deadline as partial', () => {
    const [g] = groups({ query: 'a cozy bakery in Berlin selling sourdough' });
    const pool = buildGroupPool(
      g!,
      [candidate('bakerysourdough.com', { prices: eurPrices({ currency: 'USD' }) })],
      CTX,
    );
    const out = buildGroupOutput({
      group: g!,
      pool,
      outcome: undefined,
      error: { code: 'DEADLINE_EXCEEDED', message: 'The group deadline cut the suggestion stream.' },
    });
    expect(out.id).toBeNull();
    expect(out.searched_query).toBe('bakerysourdough');
    expect(out.warnings.map((w) => w.code)).toEqual(['QUERY_REDUCED', 'CURRENCY_MISMATCH']);
    expect(out.results[0]).toMatchObject({ pricing_status: 'currency_mismatch', registration_tiers: [] });
    expect(out.partial).toBe(true);
  });

  it('adds POOL_TRUNCATED when more than 40 candidates were checked', () => {
    const [g] = groups({ query: 'cedar' });
    const many = Array.from({ length: 41 }, (_, i) => candidate(`cedar${i}.com`));
    const pool = buildGroupPool(g!, many, CTX);
    expect(pool.pool).toHaveLength(40);
    expect(pool.warnings.map((w) => w.code)).toEqual(['POOL_TRUNCATED']);
  });

  it('shows an exact in-use FQDN under the default policy, even outside the requested tlds', () => {
    const [g] = groups({ query: 'cedar.com', tlds: ['net'] });
    const pool = buildGroupPool(g!, [candidate('cedar.com', { availability: 'unavailable' })], CTX);
    const out = buildGroupOutput({ group: g!, pool, outcome: undefined });
    expect(out.results.map((r) => [r.domain, r.availability])).toEqual([['cedar.com', 'unavailable']]);
  });
});

describe('toWorkflowOutput', () => {
  const [ok, other] = groups({ id: 'a', query: 'cedar' }, { id: 'b', query: 'maple' });
  const okOut = buildGroupOutput({
    group: ok!,
    pool: buildGroupPool(ok!, [candidate('cedar.com'), candidate('cedar.net')], CTX),
    outcome: undefined,
  });
  const failed = failedGroupOutput(other!, {
    code: 'UPSTREAM_UNAVAILABLE',
    message: 'The shop did not answer.',
  });

  it('tags selected results with their group and ignores a failed sibling', () => {
    const view = toWorkflowOutput({ results: [okOut, failed] });
    expect(view.results.map((r) => [r.domain, r.group_id, r.group_index])).toEqual([
      ['cedar.com', 'a', 0],
      ['cedar.net', 'a', 0],
    ]);
    expect(view.result_count).toBe(2);
    expect(view.error).toBeNull();
    expect(view.raw.results[1]).toMatchObject({
      id: 'b',
      error: { code: 'UPSTREAM_UNAVAILABLE' },
      partial: false,
    });
    expect(WorkflowOutputSchema.parse(view)).toEqual(view);
  });

  it('gives no results, count 0 and an error on total failure', () => {
    const view = toWorkflowOutput({ results: [failed, failed] });
    expect(view).toMatchObject({
      results: [],
      result_count: 0,
      error: { code: 'UPSTREAM_UNAVAILABLE', message: 'All 2 domain search(es) failed.' },
    });
  });

  it('keeps a completed available_only search with 0 results error-free, evidence in raw', () => {
    const [g] = groups({ query: 'cedar', availability: 'available_only' });
    const out = buildGroupOutput({
      group: g!,
      pool: buildGroupPool(g!, [candidate('cedar.com', { availability: 'unavailable' })], CTX),
      outcome: undefined,
    });
    const view = toWorkflowOutput({ results: [out] });
    expect(view).toMatchObject({ result_count: 0, error: null });
    expect(view.raw.results[0]?.checked_results.map((r) => r.domain)).toEqual(['cedar.com']);
  });

  it('marks relevance failed (no warning) on a failed group that asked for it', () => {
    const [g] = groups({ query: 'cedar', relevance_criteria: 'short' });
    const out = failedGroupOutput(g!, { code: 'DEADLINE_EXCEEDED', message: 'Deadline.' });
    expect(out.relevance_applied.status).toBe('failed');
    expect(out.warnings).toEqual([]);
  });

  it('documents every group field', () => {
    const schema = z.toJSONSchema(GroupOutputSchema) as {
      properties: Record<string, { description?: string }>;
    };
    for (const [name, prop] of Object.entries(schema.properties)) expect(prop.description, name).toBeTruthy();
  });
});
