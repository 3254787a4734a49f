import { describe, expect, it } from 'vitest';
import { normaliseLanguage } from './languages.js';
import { findDirectives, formatSources, parseDirective, parseMessageReferences } from './references.js';
import { TtlCache } from '../cache/ttl-cache.js';

describe('encyclopedia languages', () => {
  it('normalises region and script subtags and refuses everything off the allow-list', () => {
    expect(
      ['de-DE', 'pt_BR', 'EN', ' fr ', 'zh-Hant', 'xx', 'de--', 'english'].map(normaliseLanguage),
    ).toEqual(['de', 'pt', 'en', 'fr', undefined, undefined, undefined, undefined]);
  });
});

describe('@encyclopedia references', () => {
  it('removes directives, keeps order, keeps at most three and counts the rest', () => {
    const parsed = parseMessageReferences(
      'See @encyclopedia:en:Ada_Lovelace, @encyclopedia:de:Merkur_(Planet). Also @encyclopedia:fr:Paris and @encyclopedia:en:Moon and @encyclopedia:xx:Nope!',
    );
    expect(parsed).toEqual({
      text: 'See. Also and and!',
      references: [
        { language: 'en', title: 'Ada Lovelace' },
        { language: 'de', title: 'Merkur (Planet)' },
        { language: 'fr', title: 'Paris' },
      ],
      dropped: 1,
      malformed: 1,
    });
  });

  it('decodes percent-encoding and names each malformation without quoting it', () => {
    expect(parseDirective('en:Caf%C3%A9_de_Flore')).toEqual({
      ok: true,
      reference: { language: 'en', title: 'Café de Flore' },
    });
    expect(
      ['en', 'en:', 'xx:Paris', 'en:%E0%A4%A', 'en:Bad title', 'en:A%7CB', `en:${'a'.repeat(256)}`].map(
        (b) => (parseDirective(b) as { message?: string }).message,
      ),
    ).toEqual([
      'must be @encyclopedia:<language>:<percent_encoded_title>',
      'has an empty title',
      'names a language that is not supported',
      'has a title with broken percent-encoding',
      'has a title that is not percent-encoded',
      'has an invalid title',
      'has a title longer than 255 characters',
    ]);
  });

  it('treats a template expression inside a directive as dynamic and keeps it whole', () => {
    expect(findDirectives('x @encyclopedia:en:{{ steps.s.results.0.key }} y')).toEqual([
      { start: 2, end: 46, body: 'en:{{ steps.s.results.0.key }}', dynamic: true },
    ]);
  });

  it('leaves a message without directives untouched and formats numbered sources', () => {
    expect(parseMessageReferences('Mercury is hot. email@encyclopedia.org')).toMatchObject({
      text: 'Mercury is hot. email@encyclopedia.org',
      references: [],
    });
    expect(
      formatSources([
        { title: 'Paris', language: 'fr', url: 'https://fr.example/wiki/Paris', extract: 'Capitale.' },
        { title: 'Moon', language: 'en', url: '', extract: 'not found' },
      ]),
    ).toBe(
      'Sources:\n[1] Paris (fr) https://fr.example/wiki/Paris\n    Capitale.\n[2] Moon (en) \n    not found',
    );
  });
});

describe('TtlCache', () => {
  it('expires entries after the TTL and evicts the least recently used past the bound', () => {
    let now = 0;
    const cache = new TtlCache<number>({ maxEntries: 2, ttlMs: 100, now: () => now });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([1, undefined, 3]);
    now = 100;
    expect([cache.get('a'), cache.size]).toEqual([undefined, 1]);
  });
});
