import { describe, expect, it } from 'vitest';
import { domains, result } from './fixtures.test-helpers.js';
import { buildCheckedPool, selectResults } from './selection.js';

// Provider order: in use, available, unknown, available, in use, available.
const POOL = [
  result('u1.com', 'unavailable'),
  result('a1.com', 'available'),
  result('x1.com', 'unknown'),
  result('a2.com', 'available'),
  result('u2.com', 'unavailable'),
  result('a3.com', 'available'),
];

describe('buildCheckedPool', () => {
  it('caps the pool at 40 and says so', () => {
    const many = Array.from({ length: 45 }, (_, i) => result(`n${i}.com`, 'available'));
    const { pool, truncated } = buildCheckedPool(many);
    expect(pool).toHaveLength(40);
    expect(pool[39]?.domain).toBe('n39.com');
    expect(truncated).toBe(true);
    expect(buildCheckedPool(many.slice(0, 40)).truncated).toBe(false);
  });

  it('enforces requested suffixes on canonical names but keeps the exact name asked for', () => {
    const rs = [
      result('cedar.com', 'available'),
      result('cedar.app', 'available'),
      result('cedar.io', 'unavailable'),
    ];
    expect(domains(buildCheckedPool(rs, { suffixes: ['com'] }).pool)).toEqual(['cedar.com']);
    expect(domains(buildCheckedPool(rs, { suffixes: ['com'], exactDomain: 'cedar.io' }).pool)).toEqual([
      'cedar.com',
      'cedar.io',
    ]);
  });

  it('deduplicates by domain and lets a confirmed answer replace an unknown one', () => {
    const rs = [result('a1.com', 'unknown'), result('b1.com', 'available'), result('a1.com', 'unavailable')];
    const { pool } = buildCheckedPool(rs);
    expect(pool.map((r) => [r.domain, r.availability])).toEqual([
      ['a1.com', 'unavailable'],
      ['b1.com', 'available'],
    ]);
    const confirmedFirst = buildCheckedPool([
      result('a1.com', 'available'),
      result('a1.com', 'unknown'),
    ]).pool;
    expect(confirmedFirst[0]?.availability).toBe('available');
  });
});

describe('selectResults', () => {
  it('prefer_available: available first, then in-use names fill the shortfall; unknown never fills', () => {
    const { selected, warnings } = selectResults(POOL, { policy: 'prefer_available', maxResults: 5 });
    expect(domains(selected)).toEqual(['a1.com', 'a2.com', 'a3.com', 'u1.com', 'u2.com']);
    expect(warnings.map((w) => w.code)).toEqual(['AVAILABILITY_UNKNOWN']);
    expect(
      domains(selectResults(POOL, { policy: 'prefer_available', maxResults: 10 }).selected),
    ).not.toContain('x1.com');
  });

  it('available_only never fills with in-use names (result_count may be 0)', () => {
    expect(domains(selectResults(POOL, { policy: 'available_only', maxResults: 10 }).selected)).toEqual([
      'a1.com',
      'a2.com',
      'a3.com',
    ]);
    const taken = [result('u1.com', 'unavailable')];
    expect(selectResults(taken, { policy: 'available_only', maxResults: 10 }).selected).toEqual([]);
  });

  it('all keeps provider order of available and in-use names', () => {
    expect(domains(selectResults(POOL, { policy: 'all', maxResults: 4 }).selected)).toEqual([
      'u1.com',
      'a1.com',
      'a2.com',
      'u2.com',
    ]);
  });

  it('never returns more than max_results', () => {
    expect(selectResults(POOL, { policy: 'all', maxResults: 1 }).selected).toHaveLength(1);
  });

  it('keeps an exact in-use name visible first under the default policy', () => {
    const pool = [
      result('a1.com', 'available'),
      result('a2.com', 'available'),
      result('cedar.com', 'unavailable'),
    ];
    const { selected, warnings } = selectResults(pool, {
      policy: 'prefer_available',
      maxResults: 2,
      exactDomain: 'cedar.com',
    });
    expect(domains(selected)).toEqual(['cedar.com', 'a1.com']);
    expect(warnings).toEqual([]);
  });

  it('warns EXACT_NAME_IN_USE instead under available_only', () => {
    const pool = [result('cedar.com', 'unavailable'), result('a1.com', 'available')];
    const { selected, warnings } = selectResults(pool, {
      policy: 'available_only',
      maxResults: 10,
      exactDomain: 'cedar.com',
    });
    expect(domains(selected)).toEqual(['a1.com']);
    expect(warnings).toEqual([
      {
        code: 'EXACT_NAME_IN_USE',
        message: 'cedar.com is in use; available_only hides it (it is listed in checked_results).',
      },
    ]);
  });

  it('warns EXACT_NAME_UNKNOWN when the exact check failed, and does not fill a slot with it', () => {
    const { selected, warnings } = selectResults([result('x.invalid', 'unknown')], {
      policy: 'prefer_available',
      maxResults: 10,
      exactDomain: 'x.invalid',
    });
    expect(selected).toEqual([]);
    expect(warnings.map((w) => w.code)).toEqual(['EXACT_NAME_UNKNOWN']);
  });
});
