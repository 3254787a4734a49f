import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseOrThrow, SkillflowError } from '../../../../../lib/errors/skillflow-error.js';
import { INPUT_DEFAULTS, prepareGroups, SearchDomainsInputSchema } from './input.js';

/** Runs the parser and returns the INVALID_PARAMETER issues it threw. */
function issuesOf(raw: unknown): { path: string; message: string }[] {
  try {
    parseOrThrow(SearchDomainsInputSchema, raw);
  } catch (err) {
    expect(err).toBeInstanceOf(SkillflowError);
    const e = err as SkillflowError;
    expect(e.code).toBe('INVALID_PARAMETER');
    expect(e.status).toBe(400);
    return e.details['issues'] as { path: string; message: string }[];
  }
  throw new Error('expected INVALID_PARAMETER');
}

const paths = (raw: unknown) => issuesOf(raw).map((i) => i.path);

describe('input schema defaults', () => {
  it('fills country DE, currency EUR, max_results 10 and prefer_available explicitly', () => {
    const parsed = parseOrThrow(SearchDomainsInputSchema, { requests: [{ query: 'cedar' }] });
    expect(parsed.requests).toEqual([
      { query: 'cedar', country: 'DE', currency: 'EUR', max_results: 10, availability: 'prefer_available' },
    ]);
    expect(parsed.requests[0]).toEqual({ query: 'cedar', ...INPUT_DEFAULTS });
  });

  it('normalises country case and keeps a given id', () => {
    const parsed = parseOrThrow(SearchDomainsInputSchema, {
      requests: [{ id: 'a', query: 'cedar', country: 'us', currency: 'USD' }],
    });
    expect(parsed.requests[0]).toMatchObject({ id: 'a', country: 'US', currency: 'USD' });
  });
});

describe('input schema tlds', () => {
  it('strips dots, lowercases and deduplicates: [".COM","com","Net"] → ["com","net"]', () => {
    const parsed = parseOrThrow(SearchDomainsInputSchema, {
      requests: [{ query: 'cedar', tlds: ['.COM', 'com', 'Net'] }],
    });
    expect(parsed.requests[0]?.tlds).toEqual(['com', 'net']);
  });

  it('converts an IDN extension to ASCII', () => {
    const parsed = parseOrThrow(SearchDomainsInputSchema, {
      requests: [{ query: 'cedar', tlds: ['.Онлайн'] }],
    });
    expect(parsed.requests[0]?.tlds).toEqual(['xn--80asehdb']);
  });

  it('accepts 20 extensions (the exact-lookup cap), rejects 21, and rejects invalid labels with their paths', () => {
    const tlds = (n: number) => Array.from({ length: n }, (_, i) => `x${i}z`);
    expect(
      parseOrThrow(SearchDomainsInputSchema, { requests: [{ query: 'cedar', tlds: tlds(20) }] }).requests[0]!
        .tlds,
    ).toHaveLength(20);
    expect(issuesOf({ requests: [{ query: 'cedar', tlds: tlds(21) }] })).toEqual([
      { path: 'requests[0].tlds', message: 'At most 20 extensions are allowed.' },
    ]);
    expect(paths({ requests: [{ query: 'cedar', tlds: ['com', 'co.uk', '-x', '123'] }] })).toEqual([
      'requests[0].tlds[1]',
      'requests[0].tlds[2]',
      'requests[0].tlds[3]',
    ]);
  });
});

describe('input schema rejections', () => {
  it('rejects max_results true, "10", 0, 21 and 2.5 without coercion', () => {
    for (const bad of [true, '10', 0, 21, 2.5]) {
      expect(issuesOf({ requests: [{ query: 'cedar', max_results: bad }] })).toEqual([
        { path: 'requests[0].max_results', message: 'max_results must be an integer from 1 to 20.' },
      ]);
    }
  });

  it('rejects bad country, currency, availability and over-long criteria', () => {
    const raw = {
      requests: [
        {
          query: 'cedar',
          country: 'XX',
          currency: 'GBP',
          availability: 'any',
          relevance_criteria: 'x'.repeat(501),
        },
      ],
    };
    expect(paths(raw)).toEqual([
      'requests[0].country',
      'requests[0].currency',
      'requests[0].availability',
      'requests[0].relevance_criteria',
    ]);
  });

  it('rejects unknown fields with their path, at group and envelope level', () => {
    expect(issuesOf({ requests: [{ query: 'cedar', colour: 'red' }], extra: 1 })).toEqual([
      { path: 'requests[0].colour', message: 'Unknown field.' },
      { path: 'extra', message: 'Unknown field.' },
    ]);
  });

  it('rejects a duplicate id at requests[3].id together with other issues', () => {
    const raw = {
      requests: [
        { id: 'a', query: 'one' },
        { id: 'b', query: 'two', max_results: 99 },
        { id: 'c', query: 'three' },
        { id: 'a', query: 'four' },
      ],
    };
    expect(paths(raw)).toEqual(['requests[1].max_results', 'requests[3].id']);
  });

  it('rejects zero or six groups', () => {
    expect(paths({ requests: [] })).toEqual(['requests']);
    expect(paths({ requests: Array.from({ length: 6 }, () => ({ query: 'cedar' })) })).toEqual(['requests']);
  });

  it('rejects invalid names locally: a space in a name, a bad label, an empty query', () => {
    expect(
      issuesOf({ requests: [{ query: 'my shop.com' }, { query: '-cedar.com' }, { query: '  ' }] }),
    ).toEqual([
      { path: 'requests[0].query', message: 'Not a valid domain name: a domain name cannot contain spaces.' },
      {
        path: 'requests[1].query',
        message: 'Not a valid domain name: a label starts or ends with a hyphen.',
      },
      { path: 'requests[2].query', message: 'The query is empty.' },
    ]);
  });

  it('rejects emoji and symbols in a name, a keyword and an extension, naming the rule, not the text', () => {
    const rule = 'a label has a character IDNA2008 does not allow, such as an emoji or symbol';
    expect(
      issuesOf({
        requests: [
          { query: '🙂.com' },
          { query: 'xn--938h.com' },
          { query: 'a☃b' },
          { query: 'cedar', tlds: ['♥'] },
        ],
      }),
    ).toEqual([
      { path: 'requests[0].query', message: `Not a valid domain name: ${rule}.` },
      { path: 'requests[1].query', message: `Not a valid domain name: ${rule}.` },
      { path: 'requests[2].query', message: `Not a valid keyword: ${rule}.` },
      { path: 'requests[3].tlds[0]', message: `Not a valid extension: ${rule}.` },
    ]);
  });

  it('lists every failing group in one error (the whole call fails)', () => {
    const err = (() => {
      try {
        parseOrThrow(SearchDomainsInputSchema, {
          requests: [{ query: 'ok' }, { query: 'x', max_results: true }, { tlds: [] }],
        });
      } catch (e) {
        return e as SkillflowError;
      }
      throw new Error('expected failure');
    })();
    expect(err.message).toBe(
      'Invalid value at requests[1].max_results: max_results must be an integer from 1 to 20.',
    );
    expect((err.details['issues'] as { path: string }[]).map((i) => i.path)).toEqual([
      'requests[1].max_results',
      'requests[2].query',
    ]);
  });
});

describe('prepareGroups', () => {
  it('classifies an FQDN, a keyword and a brief, and warns about the reduction', () => {
    const input = parseOrThrow(SearchDomainsInputSchema, {
      requests: [
        { query: 'Bücher.AI.' },
        { query: 'Cedar' },
        { query: 'a cozy bakery in Berlin selling sourdough' },
      ],
    });
    const [fqdn, keyword, brief] = prepareGroups(input);
    expect(fqdn?.target).toEqual({ kind: 'fqdn', domain: 'xn--bcher-kva.ai', domain_unicode: 'bücher.ai' });
    expect(fqdn?.searchedQuery).toBe('xn--bcher-kva.ai');
    expect(keyword?.searchedQuery).toBe('cedar');
    expect(keyword?.warnings).toEqual([]);
    expect(brief?.searchedQuery).toBe('bakerysourdough');
    expect(brief?.warnings).toEqual([
      {
        code: 'QUERY_REDUCED',
        message: 'The brief was reduced to the keyword "bakerysourdough" before searching.',
      },
    ]);
  });
});

describe('JSON Schema of the input', () => {
  it('documents defaults and limits', () => {
    const schema = z.toJSONSchema(SearchDomainsInputSchema, { io: 'input' }) as unknown as {
      properties: {
        requests: { maxItems: number; items: { properties: Record<string, Record<string, unknown>> } };
      };
    };
    const item = schema.properties.requests.items.properties;
    expect(schema.properties.requests.maxItems).toBe(5);
    expect(item['max_results']).toMatchObject({ type: 'integer', minimum: 1, maximum: 20, default: 10 });
    expect(item['country']).toMatchObject({ default: 'DE' });
    expect(item['currency']).toMatchObject({ enum: ['EUR', 'USD'], default: 'EUR' });
    expect(item['tlds']).toMatchObject({ maxItems: 20 });
  });
});
