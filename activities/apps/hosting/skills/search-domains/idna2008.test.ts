import { describe, expect, it } from 'vitest';
import { IDNA2008_REASONS, idna2008Violation } from './idna2008.js';

describe('idna2008Violation', () => {
  it('allows letters, digits and marks of any script, and the PVALID exceptions', () => {
    for (const label of [
      'münchen',
      'straße',
      'ελληνικά',
      'пример',
      'مثال',
      'דוגמה',
      'ตัวอย่าง',
      'हिन्दी',
      '例え',
      'ꦗꦮ',
      '〇',
      '\u0f40\u0f0b\u0f41',
      'شاه\u06fd',
      'abc-123',
    ]) {
      expect(idna2008Violation(label), label).toBeUndefined();
    }
  });

  it('disallows emoji, symbols, punctuation and the DISALLOWED exceptions', () => {
    for (const label of [
      '🙂',
      '👍🏽',
      '👩\u200d💻',
      'a☃b',
      '♥',
      '★',
      '©',
      '✂',
      '€',
      '½',
      'a_b',
      'a\u0640b',
      'ߊ\u07faߊ',
      'ᄀ',
      'ス〱',
      '가\u302e',
      'a\u20d0',
      'a\u00adb',
      '\u{e0001}a',
      'a\u{50000}',
    ]) {
      expect(idna2008Violation(label), label).toBe(IDNA2008_REASONS.disallowed);
    }
  });

  it('allows a middle dot only between two "l"', () => {
    expect(idna2008Violation('col·lecció')).toBeUndefined();
    expect(idna2008Violation('a·b')).toBe(IDNA2008_REASONS.middleDot);
    expect(idna2008Violation('l·')).toBe(IDNA2008_REASONS.middleDot);
    expect(idna2008Violation('·l')).toBe(IDNA2008_REASONS.middleDot);
  });

  it('allows a Greek keraia only before a Greek character', () => {
    expect(idna2008Violation('͵α')).toBeUndefined();
    expect(idna2008Violation('͵a')).toBe(IDNA2008_REASONS.keraia);
    expect(idna2008Violation('α͵')).toBe(IDNA2008_REASONS.keraia);
  });

  it('allows a Hebrew geresh or gershayim only after a Hebrew character', () => {
    expect(idna2008Violation('צה״ל')).toBeUndefined();
    expect(idna2008Violation('ג׳')).toBeUndefined();
    expect(idna2008Violation('׳ג')).toBe(IDNA2008_REASONS.geresh);
    expect(idna2008Violation('a״')).toBe(IDNA2008_REASONS.geresh);
  });

  it('allows a katakana middle dot only in a label with Hiragana, Katakana or Han', () => {
    expect(idna2008Violation('ジャパン・ネット')).toBeUndefined();
    expect(idna2008Violation('東京・大阪')).toBeUndefined();
    expect(idna2008Violation('・')).toBe(IDNA2008_REASONS.katakanaMiddleDot);
    expect(idna2008Violation('a・b')).toBe(IDNA2008_REASONS.katakanaMiddleDot);
  });

  it('never mixes Arabic-Indic and extended Arabic-Indic digits in one label', () => {
    expect(idna2008Violation('مثال١٢')).toBeUndefined();
    expect(idna2008Violation('مثال۱۲')).toBeUndefined();
    expect(idna2008Violation('مثال١۲')).toBe(IDNA2008_REASONS.arabicDigits);
    expect(idna2008Violation('۱مثال٢')).toBe(IDNA2008_REASONS.arabicDigits);
  });

  it('leaves the joiners to the UTS-46 CheckJoiners rule', () => {
    expect(idna2008Violation('क्\u200dष')).toBeUndefined();
  });
});
