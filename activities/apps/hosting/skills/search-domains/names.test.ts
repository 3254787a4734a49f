import { describe, expect, it } from 'vitest';
import { reduceBrief } from './keyword.js';
import {
  canonicalDomain,
  checkDomainName,
  classifyQuery,
  displayName,
  matchesSuffixes,
  suffixOf,
} from './names.js';

/** The reason a name is invalid, or 'ok'. */
const reason = (name: string) => {
  const r = checkDomainName(name);
  return r.ok ? 'ok' : r.reason;
};

describe('checkDomainName', () => {
  it('canonicalises IDN, case and a trailing dot', () => {
    expect(checkDomainName('Bücher.AI.')).toEqual({
      ok: true,
      ascii: 'xn--bcher-kva.ai',
      unicode: 'bücher.ai',
    });
    expect(checkDomainName('xn--bcher-kva.ai')).toEqual({
      ok: true,
      ascii: 'xn--bcher-kva.ai',
      unicode: 'bücher.ai',
    });
  });

  it('uses non-transitional processing: ß is kept, not mapped to ss', () => {
    expect(canonicalDomain('straße.de')).toBe('xn--strae-oqa.de');
  });

  it('rejects LDH violations with the rule that failed', () => {
    expect(reason('my shop.com')).toBe('a domain name cannot contain spaces');
    expect(reason('-cedar.com')).toBe('a label starts or ends with a hyphen');
    expect(reason('cedar-.com')).toBe('a label starts or ends with a hyphen');
    expect(reason('ab--cd.com')).toBe('a label has "--" at positions 3-4 and is not a valid IDN label');
    expect(reason('xn--zz.com')).toBe('a label has "--" at positions 3-4 and is not a valid IDN label');
    expect(reason('a_b.com')).toBe('a label may contain only letters, digits and hyphens');
    expect(reason('cedar..com')).toBe('a label is empty');
    expect(reason('cedar')).toBe('a domain name needs at least two labels');
    expect(reason('1.2.3.4')).toBe('the top-level label cannot be all digits');
  });

  it('enforces 63 octets per label and 253 per name', () => {
    expect(checkDomainName(`${'a'.repeat(63)}.com`).ok).toBe(true);
    expect(checkDomainName(`${'a'.repeat(64)}.com`)).toEqual({
      ok: false,
      reason: `a label is longer than 63 octets`,
    });
    const head = ['a', 'b', 'c'].map((ch) => ch.repeat(63)).join('.');
    expect(`${head}.${'d'.repeat(61)}`.length).toBe(253);
    expect(checkDomainName(`${head}.${'d'.repeat(61)}`).ok).toBe(true);
    expect(checkDomainName(`${head}.${'d'.repeat(62)}`)).toEqual({
      ok: false,
      reason: 'the name is longer than 253 octets',
    });
  });
});

describe('checkDomainName: IDNA2008 after UTS-46 mapping', () => {
  const DISALLOWED = 'a label has a character IDNA2008 does not allow, such as an emoji or symbol';

  it('rejects emoji, with skin-tone modifiers and in ZWJ sequences', () => {
    expect(checkDomainName('🙂.com')).toEqual({ ok: false, reason: DISALLOWED });
    expect(reason('👍🏽.com')).toBe(DISALLOWED);
    expect(reason('👨\u200d👩\u200d👧.com')).toBe(DISALLOWED);
    expect(reason('cedar👩\u200d💻.com')).toBe(DISALLOWED);
  });

  it('rejects symbols and dingbats, alone or between letters', () => {
    for (const name of ['☃.com', 'a☃b.com', '♥.de', '★.net', '©.com', '✂.com', '✈.travel', '➡.ai']) {
      expect(reason(name), name).toBe(DISALLOWED);
    }
  });

  it('rejects an xn-- label whose decoded form is disallowed, as sent in punycode', () => {
    expect(checkDomainName('xn--938h.com')).toEqual({ ok: false, reason: DISALLOWED });
    expect(reason('XN--AB-FSX.com')).toBe(DISALLOWED);
    expect(reason('cedar.xn--938h')).toBe(DISALLOWED);
  });

  it('rejects a CONTEXTO character out of its context with the rule it breaks', () => {
    expect(reason('a·b.cat')).toBe('a label has a middle dot that is not between two "l" letters');
    expect(reason('a・b.jp')).toBe(
      'a label has a katakana middle dot but no Hiragana, Katakana or Han character',
    );
  });

  it('keeps valid IDNs of every script valid', () => {
    expect(checkDomainName('straße.de')).toEqual({
      ok: true,
      ascii: 'xn--strae-oqa.de',
      unicode: 'straße.de',
    });
    expect(checkDomainName('col·lecció.cat')).toEqual({
      ok: true,
      ascii: 'xn--collecci-ioa91d.cat',
      unicode: 'col·lecció.cat',
    });
    // The katakana middle dot is allowed: the label has Katakana.
    expect(checkDomainName('ジャパン・ネット.jp')).toEqual({
      ok: true,
      ascii: 'xn--yckwapst1izeuc.jp',
      unicode: 'ジャパン・ネット.jp',
    });
    for (const name of [
      'παράδειγμα.gr',
      'ελληνικά.gr',
      'пример.рф',
      '例え.jp',
      'münchen.de',
      'مثال.com',
      'דוגמה.com',
      'צה״ל.co.il',
      'ตัวอย่าง.com',
      'उदाहरण.भारत',
      'हिन्दी.com',
    ]) {
      const checked = checkDomainName(name);
      expect(checked, name).toMatchObject({ ok: true, unicode: name });
    }
  });

  it('rejects a keyword with an emoji or a symbol as well', () => {
    expect(classifyQuery('🙂')).toEqual({ ok: false, message: `Not a valid keyword: ${DISALLOWED}.` });
    expect(classifyQuery('a☃b')).toEqual({ ok: false, message: `Not a valid keyword: ${DISALLOWED}.` });
  });
});

describe('suffixes and display names', () => {
  it('takes everything after the first label as the suffix', () => {
    expect(suffixOf('shop.co.uk')).toBe('co.uk');
    expect(matchesSuffixes('cedar.com', ['com', 'net'])).toBe(true);
    expect(matchesSuffixes('cedar.app', ['com', 'net'])).toBe(false);
    expect(matchesSuffixes('cedar.app', undefined)).toBe(true);
    expect(displayName('xn--bcher-kva.ai')).toBe('bücher.ai');
  });
});

describe('classifyQuery', () => {
  it('treats a dotted single word as an exact FQDN', () => {
    expect(classifyQuery(' Cedar.COM ')).toEqual({
      ok: true,
      target: { kind: 'fqdn', domain: 'cedar.com', domain_unicode: 'cedar.com' },
    });
  });

  it('treats one word as a keyword, IDN-safe', () => {
    expect(classifyQuery('Bücher')).toEqual({
      ok: true,
      target: { kind: 'keyword', keyword: 'bücher', keyword_ascii: 'xn--bcher-kva', reduced: false },
    });
    expect(classifyQuery('my_shop')).toEqual({
      ok: false,
      message: 'Not a valid keyword: a label may contain only letters, digits and hyphens.',
    });
  });

  it('rejects a short name typed with a space instead of searching it', () => {
    expect(classifyQuery('cedar wood.com')).toEqual({
      ok: false,
      message: 'Not a valid domain name: a domain name cannot contain spaces.',
    });
  });

  it('reduces a natural-language brief instead of sending it upstream', () => {
    expect(classifyQuery('a cozy bakery in Berlin selling sourdough')).toEqual({
      ok: true,
      target: {
        kind: 'keyword',
        keyword: 'bakerysourdough',
        keyword_ascii: 'bakerysourdough',
        reduced: true,
      },
    });
  });

  it('rejects a brief with nothing distinctive in it', () => {
    expect(classifyQuery('I want a new domain for my')).toEqual({
      ok: false,
      message: 'The query has no usable keyword; pass a short name or a domain name.',
    });
  });
});

describe('reduceBrief', () => {
  it('drops English and German stop words and keeps the two longest words in order', () => {
    expect(reduceBrief('Eine kleine Bäckerei für Brot')).toBe('baeckereibrot');
    expect(reduceBrief('Yoga studio in Hamburg')).toBe('studiohamburg');
  });

  it('folds diacritics and keeps only the top word when two do not fit in 20 characters', () => {
    expect(reduceBrief('Café crème')).toBe('cafecreme');
    expect(reduceBrief('Eine kleine Bäckerei für Sauerteigbrot')).toBe('sauerteigbrot');
    expect(reduceBrief('handmade leatherwork and bookbinding')).toBe('leatherwork');
  });

  it('cuts a single over-long word to 20 characters', () => {
    expect(reduceBrief('the Donaudampfschifffahrtsgesellschaft museum')).toBe('donaudampfschifffahr');
  });

  it('is deterministic on ties (earlier word wins)', () => {
    expect(reduceBrief('bakery berlin market')).toBe('bakeryberlin');
    expect(reduceBrief('berlin bakery market')).toBe('berlinbakery');
  });
});
