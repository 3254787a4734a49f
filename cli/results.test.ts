import { describe, expect, it } from 'vitest';
import { previewTable, skillResultLines, warningLines } from './results.js';

describe('a skill answer for a person', () => {
  it('shows previews as a table: a header, aligned columns, numbers to the right, no empty or repeated column', () => {
    expect(
      previewTable([
        {
          group_id: null,
          domain: 'cedar.com',
          domain_unicode: 'cedar.com',
          availability: 'available',
          price: 'Registration 9.99 EUR',
        },
        {
          group_id: null,
          domain: 'cedar.io',
          domain_unicode: 'cedar.io',
          availability: 'registered',
          price: null,
        },
      ]),
    ).toEqual([
      'domain     availability  price',
      'cedar.com  available     Registration 9.99 EUR',
      'cedar.io   registered',
    ]);
    expect(
      previewTable([
        { id: 'sol_1', rank: 1, part_number: 'TPS1', efficiency: 0.91234 },
        { id: 'sol_22', rank: 12, part_number: 'LM2', efficiency: 0.8 },
      ]),
    ).toEqual([
      'id      rank  part number  efficiency',
      'sol_1      1  TPS1              0.912',
      'sol_22    12  LM2                 0.8',
    ]);
    expect(previewTable([])).toEqual([]);
  });

  it('names the warnings of the answer and of each request, by request when there are several', () => {
    const warning = (code: string) => ({ code, message: `${code} happened.` });
    expect(warningLines({ results: [{ warnings: [warning('QUERY_REDUCED')] }] })).toEqual([
      'warning: QUERY_REDUCED: QUERY_REDUCED happened.',
    ]);
    expect(
      warningLines({
        warnings: [warning('POOL_TRUNCATED')],
        results: [{ warnings: [] }, { warnings: [warning('RELEVANCE_FAILED'), { code: 1 }] }],
      }),
    ).toEqual([
      'warning: POOL_TRUNCATED: POOL_TRUNCATED happened.',
      'warning (request 2): RELEVANCE_FAILED: RELEVANCE_FAILED happened.',
    ]);
    expect(warningLines(null)).toEqual([]);
  });

  it('shows a skill call task result, and nothing for a workflow run result', () => {
    expect(
      skillResultLines({
        output: { results: [{ warnings: [{ code: 'RELEVANCE_NOT_CONFIGURED', message: 'No helper.' }] }] },
        previews: [{ title: 'Cedar', url: 'https://example.org/Cedar' }],
      }),
    ).toEqual([
      'title  url',
      'Cedar  https://example.org/Cedar',
      'warning: RELEVANCE_NOT_CONFIGURED: No helper.',
    ]);
    expect(skillResultLines({ outputs: {}, steps: {} })).toEqual([]);
    expect(skillResultLines(null)).toEqual([]);
  });
});
