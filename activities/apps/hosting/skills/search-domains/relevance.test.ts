import { describe, expect, it } from 'vitest';
import { domains, result } from './fixtures.test-helpers.js';
import { applyRelevance, buildRelevanceInput } from './relevance.js';

const POOL = [
  result('a1.com', 'available'),
  result('x1.com', 'unknown'),
  result('u1.com', 'unavailable'),
  result('a2.com', 'available'),
  result('a3.com', 'available'),
];

const base = {
  pool: POOL,
  criteria: 'short and bakery-related',
  policy: 'prefer_available',
  maxResults: 10,
} as const;

describe('buildRelevanceInput', () => {
  it('sends only hard-filtered public fields, labelled untrusted, with stable keys', () => {
    const input = buildRelevanceInput(base);
    expect(input?.criteria).toBe('short and bakery-related');
    expect(input?.instructions).toContain('untrusted');
    expect(input?.untrusted_candidates).toEqual([
      { key: 'c0', name: 'a1.com', availability: 'available', premium: false },
      { key: 'c1', name: 'u1.com', availability: 'unavailable', premium: false },
      { key: 'c2', name: 'a2.com', availability: 'available', premium: false },
      { key: 'c3', name: 'a3.com', availability: 'available', premium: false },
    ]);
  });

  it('applies the policy filter, the 40 cap, and skips blank criteria', () => {
    expect(
      buildRelevanceInput({ ...base, policy: 'available_only' })?.untrusted_candidates.map((c) => c.name),
    ).toEqual(['a1.com', 'a2.com', 'a3.com']);
    const many = Array.from({ length: 50 }, (_, i) => result(`n${i}.com`, 'available'));
    expect(buildRelevanceInput({ ...base, pool: many })?.untrusted_candidates).toHaveLength(40);
    expect(buildRelevanceInput({ ...base, criteria: '   ' })).toBeUndefined();
    expect(buildRelevanceInput({ ...base, pool: [result('x1.com', 'unknown')] })).toBeUndefined();
  });
});

describe('applyRelevance', () => {
  it('removes scores below 1 and reorders stably by score, ties in provider order', () => {
    const out = applyRelevance({
      ...base,
      outcome: { kind: 'scores', scores: { c0: 2, c1: 3, c2: 0.5, c3: 2 } },
    });
    // a2 (0.5) removed; available a1 and a3 tie at 2 (provider order), in-use u1 (3) fills after them.
    expect(domains(out.selected)).toEqual(['a1.com', 'a3.com', 'u1.com']);
    expect(out.relevance_applied).toEqual({ status: 'applied', evaluated: 4, removed: 1 });
    expect(out.warnings.map((w) => w.code)).toEqual(['AVAILABILITY_UNKNOWN']);
  });

  it('ranks by score under all and slices to max_results', () => {
    const out = applyRelevance({
      ...base,
      policy: 'all',
      maxResults: 2,
      outcome: { kind: 'scores', scores: { c0: 1, c1: 4, c2: 3, c3: 0 } },
    });
    expect(domains(out.selected)).toEqual(['u1.com', 'a2.com']);
  });

  it('falls back to provider order with RELEVANCE_FAILED when the decision failed', () => {
    const out = applyRelevance({ ...base, outcome: { kind: 'failed' } });
    expect(domains(out.selected)).toEqual(['a1.com', 'a2.com', 'a3.com', 'u1.com']);
    expect(out.relevance_applied).toEqual({ status: 'failed', evaluated: 0, removed: 0 });
    expect(out.warnings[0]).toEqual({
      code: 'RELEVANCE_FAILED',
      message: 'The relevance decision failed; results keep provider order.',
    });
  });

  it('treats a missing or non-finite answer as a failed decision', () => {
    const missing = applyRelevance({ ...base, outcome: { kind: 'scores', scores: { c0: 4, c1: 4, c2: 4 } } });
    expect(missing.relevance_applied.status).toBe('failed');
    const nan = applyRelevance({
      ...base,
      outcome: { kind: 'scores', scores: { c0: 4, c1: 4, c2: 4, c3: NaN } },
    });
    expect(nan.relevance_applied.status).toBe('failed');
  });

  it('reports not_configured with a warning, and not_requested for blank criteria', () => {
    const none = applyRelevance({ ...base, outcome: { kind: 'not_configured' } });
    expect(none.relevance_applied.status).toBe('not_configured');
    expect(none.warnings[0]?.code).toBe('RELEVANCE_NOT_CONFIGURED');
    const blank = applyRelevance({ ...base, criteria: '', outcome: undefined });
    expect(blank.relevance_applied).toEqual({ status: 'not_requested', evaluated: 0, removed: 0 });
    expect(blank.warnings.map((w) => w.code)).toEqual(['AVAILABILITY_UNKNOWN']);
  });

  it('never scores away the exact name asked for', () => {
    const pool = [
      result('cedar.com', 'unavailable'),
      result('a1.com', 'available'),
      result('a2.com', 'available'),
    ];
    const input = buildRelevanceInput({ ...base, pool, exactDomain: 'cedar.com' });
    expect(input?.untrusted_candidates.map((c) => c.name)).toEqual(['a1.com', 'a2.com']);
    const out = applyRelevance({
      ...base,
      pool,
      exactDomain: 'cedar.com',
      outcome: { kind: 'scores', scores: { c0: 0, c1: 3 } },
    });
    expect(domains(out.selected)).toEqual(['cedar.com', 'a2.com']);
  });
});
