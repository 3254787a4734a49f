import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LookupResultSchema } from '../../upstream/wire.js';
import { candidate, eurPrices } from './fixtures.test-helpers.js';
import { htmlToPlainText } from './plain-text.js';
import { candidateFromLookup, DomainResultSchema, mapResult, shopUrl } from './result.js';

const CTX = {
  currency: 'EUR',
  checkedAt: '2025-03-01T12:00:00.000Z',
  shopOrigin: 'https://shop.example',
} as const;

describe('mapResult', () => {
  it('maps an available priced candidate to exactly the known schema fields', () => {
    const out = mapResult(
      candidate('xn--bcher-kva.ai', {
        domain_unicode: 'bücher.ai',
        prices: eurPrices(),
        restriction: '<p>Only for <b>AI</b> companies &amp; labs</p>',
      }),
      CTX,
    );
    expect(Object.keys(out).sort()).toEqual(Object.keys(DomainResultSchema.shape).sort());
    expect(out).toMatchObject({
      domain: 'xn--bcher-kva.ai',
      domain_unicode: 'bücher.ai',
      availability: 'available',
      premium: false,
      restrictions: 'Only for AI companies & labs',
      currency: 'EUR',
      pricing_status: 'priced',
      checked_at: '2025-03-01T12:00:00.000Z',
      url: 'https://shop.example/en/domains/search?domain=xn--bcher-kva.ai',
    });
    expect(DomainResultSchema.parse(out)).toEqual(out);
  });

  it('reports a candidate without an answer as unknown, and premium from pricing', () => {
    const premium = eurPrices({
      create: [
        {
          duration_unit: 'y',
          min_duration: 1,
          max_duration: 1,
          price_before_taxes: 900,
          price_after_taxes: 1071,
          type: 'premium',
        },
      ],
    });
    expect(mapResult(candidate('a1.com', { availability: undefined }), CTX).availability).toBe('unknown');
    expect(mapResult(candidate('cedar.online', { prices: premium }), CTX).premium).toBe(true);
  });

  it('builds the link from the fixed origin only', () => {
    expect(shopUrl('https://shop.example/ignored/path?x=1', 'cedar.com')).toBe(
      'https://shop.example/en/domains/search?domain=cedar.com',
    );
  });

  it('documents every output field', () => {
    const schema = z.toJSONSchema(DomainResultSchema) as {
      properties: Record<string, { description?: string }>;
    };
    for (const [name, prop] of Object.entries(schema.properties)) {
      expect(prop.description, name).toBeTruthy();
    }
  });
});

describe('candidateFromLookup', () => {
  it('turns a taken lookup into an unavailable candidate', () => {
    const lookup = LookupResultSchema.parse({
      fqdn: 'example.com',
      prices: {},
      availability: 'unavailable',
      premium: 0,
    });
    expect(candidateFromLookup('Example.com', lookup)).toMatchObject({
      domain: 'example.com',
      availability: 'unavailable',
      premium: false,
    });
  });

  it('keeps an unsupported suffix unknown and rejects an answer for another name', () => {
    const error = LookupResultSchema.parse({ fqdn: 'x.invalid', availability: 'error' });
    expect(candidateFromLookup('x.invalid', error)?.availability).toBe('unknown');
    const other = LookupResultSchema.parse({ fqdn: 'other.com', availability: 'available' });
    expect(candidateFromLookup('cedar.com', other)).toBeUndefined();
  });

  it('matches an IDN lookup answered in punycode', () => {
    const lookup = LookupResultSchema.parse({ fqdn: 'xn--bcher-kva.ai', availability: 'available' });
    expect(candidateFromLookup('bücher.ai', lookup)?.domain_unicode).toBe('bücher.ai');
  });
});

describe('htmlToPlainText', () => {
  it('strips tags, script bodies and comments, and decodes entities once', () => {
    expect(
      htmlToPlainText(
        '<script>alert(1)</script>Local <i>presence</i><!-- x --> required&nbsp;&#8211;&#x20AC;',
      ),
    ).toBe('Local presence required –€');
    expect(htmlToPlainText('&amp;lt;b&amp;gt;')).toBe('&lt;b&gt;');
    expect(htmlToPlainText('a<br>b<img src=x onerror=alert(1)')).toBe('a b');
  });

  it('removes control and bidi characters and bounds the length', () => {
    expect(htmlToPlainText('ok\u202Eevil\u0007')).toBe('okevil');
    const long = htmlToPlainText('x'.repeat(600));
    expect(long).toHaveLength(500);
    expect(long?.endsWith('…')).toBe(true);
    expect(htmlToPlainText('  <p> </p> ')).toBeNull();
    expect(htmlToPlainText(null)).toBeNull();
  });

  it('replaces invalid numeric entities instead of throwing', () => {
    expect(htmlToPlainText('a&#0;b&#xD800;c&#1114112;')).toBe('a\uFFFDb\uFFFDc\uFFFD');
  });
});
