import { parseOrThrow } from '../../../../../lib/errors/skillflow-error.js';
import { describe, expect, it } from 'vitest';
import { candidate } from './fixtures.test-helpers.js';
import { prepareGroups, type PreparedGroup, SearchDomainsInputSchema } from './input.js';
import { exactNames, planSearch, suggestPages, usefulCount } from './search-plan.js';

function group(item: Record<string, unknown>): PreparedGroup {
  return prepareGroups(parseOrThrow(SearchDomainsInputSchema, { requests: [item] }))[0]!;
}

describe('planSearch', () => {
  it('an FQDN is one exact lookup and no suggestion page', () => {
    expect(planSearch(group({ query: 'Bücher.AI' }))).toMatchObject({
      mode: 'exact',
      exact: ['xn--bcher-kva.ai'],
      pages: [],
    });
  });

  it('a keyword with tlds looks up keyword.tld for each, then page 1 of the first two extensions', () => {
    const plan = planSearch(group({ query: 'cedarwood', tlds: ['com', 'net', 'org'] }));
    expect(plan.exact).toEqual(['cedarwood.com', 'cedarwood.net', 'cedarwood.org']);
    expect(plan.pages).toEqual([
      { tld: 'com', page: 1 },
      { tld: 'net', page: 1 },
    ]);
    expect(plan.suffixes).toEqual(['com', 'net', 'org']);
  });

  it('one extension gives pages 1 and 2 of it; never more than 2 pages', () => {
    expect(suggestPages(['io'])).toEqual([
      { tld: 'io', page: 1 },
      { tld: 'io', page: 2 },
    ]);
    expect(suggestPages(['a', 'b', 'c', 'd'])).toHaveLength(2);
  });

  it('a keyword without tlds asks pages 1 and 2 with no extension filter and enforces no suffix', () => {
    const plan = planSearch(group({ query: 'cedarwood' }));
    expect(plan).toMatchObject({ mode: 'keyword', exact: [], keyword: 'cedarwood', suffixes: undefined });
    expect(plan.pages).toEqual([
      { tld: undefined, page: 1 },
      { tld: undefined, page: 2 },
    ]);
  });

  it('exact lookups are capped at 20 per group and use the ASCII keyword', () => {
    const tlds = Array.from({ length: 25 }, (_, i) => `t${i}x`);
    expect(exactNames('xn--bcher-kva', tlds)).toHaveLength(20);
    expect(exactNames('xn--bcher-kva', ['ai'])).toEqual(['xn--bcher-kva.ai']);
  });
});

describe('usefulCount', () => {
  const checked = [
    candidate('a.com'),
    candidate('a.com'),
    candidate('b.com', { availability: 'unavailable' }),
    candidate('c.com', { availability: 'unknown' }),
    candidate('d.online'),
  ];
  it('counts distinct available names within the suffixes; in-use ones only for "all"; unknown never', () => {
    expect(usefulCount(checked, 'prefer_available', ['com'])).toBe(1);
    expect(usefulCount(checked, 'all', ['com'])).toBe(2);
    expect(usefulCount(checked, 'available_only', undefined)).toBe(2);
  });
});
