/** web/src/skill: the result view chosen by the output's shape, domain rows, number formats, polling back-off. */
import { describe, expect, it } from 'vitest';
import { resultKind } from '../../web/src/skill/kind.js';
import { domainRows } from '../../web/src/skill/domains.js';
import { area, hertz, percent, usd } from '../../web/src/skill/format.js';
import { nextDelay } from '../../web/src/task/use-task.js';
import { runAnswer } from '../../web/src/skill/api.js';

const domain = (name: string, availability: string) => ({
  domain: name,
  domain_unicode: name,
  availability,
  premium: false,
});

describe('resultKind', () => {
  it('recognises each known output shape', () => {
    expect(resultKind({ results: [{ results: [domain('cedar.com', 'unavailable')] }] })).toBe('domains');
    expect(
      resultKind({ results: [{ results: [{ id: 'mdi:home', name: 'home', svg_url: '/v1/x.svg' }] }] }),
    ).toBe('icons');
    expect(
      resultKind({ results: [{ results: [{ title: 'Paris', url: 'https://x/Paris', reference: 'r' }] }] }),
    ).toBe('articles');
    expect(resultKind({ results: [{ title: 'Paris', url: 'https://x/Paris', extract: 'Paris is…' }] })).toBe(
      'articles',
    );
    expect(resultKind({ results: [{ solutions: [{ id: 's1', rank: 1 }] }], top_schematic: null })).toBe(
      'power',
    );
  });

  it('falls back to the generic view for anything else or mixed groups', () => {
    expect(resultKind({ results: [{ value: 1 }] })).toBe('generic');
    expect(resultKind({ summary: 'x' })).toBe('generic');
    expect(resultKind(null)).toBe('generic');
    expect(resultKind('text')).toBe('generic');
    expect(
      resultKind({
        results: [{ results: [domain('a.com', 'available')] }, { results: [{ name: 'n', svg_url: '/s' }] }],
      }),
    ).toBe('generic');
  });
});

describe('domainRows', () => {
  it('words availability and takes the price line from the previews', () => {
    const groups = [
      {
        results: [
          domain('cedar.com', 'unavailable'),
          domain('cedar.app', 'available'),
          domain('x.io', 'unknown'),
        ],
      },
    ];
    const previews = [
      { domain: 'cedar.com', price: null },
      { domain: 'cedar.app', price: 'Registration 17.84 EUR (1-10 years, incl. taxes)' },
    ];
    expect(domainRows(groups, previews)).toEqual([
      [
        { domain: 'cedar.com', status: 'unavailable', availability: 'in use', price: '', premium: false },
        {
          domain: 'cedar.app',
          status: 'available',
          availability: 'available',
          price: 'Registration 17.84 EUR (1-10 years, incl. taxes)',
          premium: false,
        },
        { domain: 'x.io', status: 'unknown', availability: 'unknown', price: '', premium: false },
      ],
    ]);
  });
});

describe('formats, polling and run answers', () => {
  it('formats power-design numbers', () => {
    expect([percent(0.9273), hertz(1_100_000), hertz(500_000), usd(2.4), area(81), usd(undefined)]).toEqual([
      '92.7 %',
      '1.1 MHz',
      '500 kHz',
      '$2.40',
      '81 mm²',
      '—',
    ]);
  });

  it('backs off from 500 ms to at most 2 s', () => {
    const delays = [500];
    while (delays.length < 6) delays.push(nextDelay(delays.at(-1)!));
    expect(delays).toEqual([500, 750, 1125, 1688, 2000, 2000]);
  });

  it('tells an inline answer from a long-running or queued task', () => {
    expect(runAnswer({ results: [], call_id: 'call_1' })).toEqual({
      kind: 'inline',
      body: { results: [], call_id: 'call_1' },
    });
    expect(runAnswer({ task_id: 't', embed_id: 'e' })).toEqual({
      kind: 'task',
      taskId: 't',
      embedId: 'e',
      queued: false,
      body: { task_id: 't', embed_id: 'e' },
    });
    expect(runAnswer({ task_id: 't', status: 'queued' })).toMatchObject({
      kind: 'task',
      embedId: null,
      queued: true,
    });
  });
});
