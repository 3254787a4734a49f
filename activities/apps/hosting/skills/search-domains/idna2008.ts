/**
 * IDNA2008 code point rules for one label, checked after UTS-46 mapping.
 *
 * UTS-46 keeps symbols and emoji valid for lookup (`🙂`, `☃`, `©`), but IDNA2008 does not allow
 * them, so no registry can register such a name. Every code point of a non-ASCII label (its
 * Unicode form after mapping) must be PVALID, or a CONTEXTO code point whose context rule holds:
 * - PVALID: a-z, 0-9, hyphen, and the LetterDigits categories Ll, Lu, Lo, Nd, Lm, Mn, Mc, unless
 *   the code point is unassigned, default-ignorable, white space, a noncharacter, in a block of
 *   combining marks for symbols or of musical symbols, or an old Hangul jamo;
 * - the exceptions override the categories: ß, ς, U+06FD, U+06FE, ་ (tsheg) and 〇 are PVALID;
 *   the Arabic tatweel, the NKo lajanyalan, the Hangul tone marks and the vertical kana repeat
 *   marks are not;
 * - CONTEXTO: a middle dot only between two `l`; a Greek keraia only before a Greek character;
 *   a Hebrew geresh or gershayim only after a Hebrew character; a katakana middle dot only in a
 *   label with a Hiragana, Katakana or Han character; Arabic-Indic digits and extended
 *   Arabic-Indic digits never in one label;
 * - the joiners U+200C and U+200D are CONTEXTJ; UTS-46 `checkJoiners` checks their rule.
 * Case folding and NFKC are the UTS-46 mapping's job, so code points that either would change do
 * not reach this check; of ASCII only a-z, 0-9 and the hyphen are allowed.
 */

/** Why a label breaks the IDNA2008 rules, naming the rule and never the label. */
export const IDNA2008_REASONS = {
  disallowed: 'a label has a character IDNA2008 does not allow, such as an emoji or symbol',
  middleDot: 'a label has a middle dot that is not between two "l" letters',
  keraia: 'a label has a Greek keraia that is not followed by a Greek character',
  geresh: 'a label has a Hebrew geresh or gershayim that does not follow a Hebrew character',
  katakanaMiddleDot: 'a label has a katakana middle dot but no Hiragana, Katakana or Han character',
  arabicDigits: 'a label mixes Arabic-Indic and extended Arabic-Indic digits',
} as const;

const EXCEPTIONS_PVALID = new Set([0x00df, 0x03c2, 0x06fd, 0x06fe, 0x0f0b, 0x3007]);
const EXCEPTIONS_DISALLOWED = new Set([
  0x0640, 0x07fa, 0x302e, 0x302f, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303b,
]);
const JOINERS = new Set([0x200c, 0x200d]);
const LDH = /^[a-z0-9-]$/u;
const UNASSIGNED = /^\p{Cn}$/u;
const IGNORABLE = /^[\p{Default_Ignorable_Code_Point}\p{White_Space}\p{Noncharacter_Code_Point}]$/u;
/** Combining Diacritical Marks for Symbols, Musical Symbols, Ancient Greek Musical Notation. */
const IGNORABLE_BLOCKS = /^[\u{20d0}-\u{20ff}\u{1d100}-\u{1d24f}]$/u;
/** Hangul_Syllable_Type L, V or T; the unassigned rest of these ranges is disallowed anyway. */
const OLD_HANGUL_JAMO = /^[\u{1100}-\u{11ff}\u{a960}-\u{a97f}\u{d7b0}-\u{d7ff}]$/u;
const LETTER_DIGIT = /^[\p{Ll}\p{Lu}\p{Lo}\p{Nd}\p{Lm}\p{Mn}\p{Mc}]$/u;
const GREEK = /^\p{Script=Greek}$/u;
const HEBREW = /^\p{Script=Hebrew}$/u;
const KANA_OR_HAN = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;
const ARABIC_INDIC_DIGIT = /[\u0660-\u0669]/u;
const EXTENDED_ARABIC_INDIC_DIGIT = /[\u06f0-\u06f9]/u;

/** The IDNA2008 derivation of one code point that is neither an exception nor CONTEXTO. */
function isPvalid(ch: string, cp: number): boolean {
  if (EXCEPTIONS_PVALID.has(cp)) return true;
  if (EXCEPTIONS_DISALLOWED.has(cp)) return false;
  if (LDH.test(ch) || JOINERS.has(cp)) return true;
  if (cp <= 0x7f || UNASSIGNED.test(ch) || IGNORABLE.test(ch)) return false;
  if (IGNORABLE_BLOCKS.test(ch) || OLD_HANGUL_JAMO.test(ch)) return false;
  return LETTER_DIGIT.test(ch);
}

/** The rule a CONTEXTO code point at `i` breaks, or null when its context holds; undefined if not CONTEXTO. */
function contextReason(chars: readonly string[], i: number, label: string): string | null | undefined {
  const before = chars[i - 1] ?? '';
  const after = chars[i + 1] ?? '';
  switch (chars[i]) {
    case '\u00b7':
      return before === 'l' && after === 'l' ? null : IDNA2008_REASONS.middleDot;
    case '\u0375':
      return GREEK.test(after) ? null : IDNA2008_REASONS.keraia;
    case '\u05f3':
    case '\u05f4':
      return HEBREW.test(before) ? null : IDNA2008_REASONS.geresh;
    case '\u30fb':
      return KANA_OR_HAN.test(label) ? null : IDNA2008_REASONS.katakanaMiddleDot;
  }
  if (ARABIC_INDIC_DIGIT.test(chars[i] ?? '')) {
    return EXTENDED_ARABIC_INDIC_DIGIT.test(label) ? IDNA2008_REASONS.arabicDigits : null;
  }
  if (EXTENDED_ARABIC_INDIC_DIGIT.test(chars[i] ?? '')) {
    return ARABIC_INDIC_DIGIT.test(label) ? IDNA2008_REASONS.arabicDigits : null;
  }
  return undefined;
}

/**
 * Why `label` (one label in its mapped Unicode form, as `toUnicode` gives it) breaks the IDNA2008
 * code point rules, or undefined when every code point is allowed in its place.
 */
export function idna2008Violation(label: string): string | undefined {
  const chars = [...label];
  for (const [i, ch] of chars.entries()) {
    const context = contextReason(chars, i, label);
    if (context !== undefined) {
      if (context !== null) return context;
      continue;
    }
    if (!isPvalid(ch, ch.codePointAt(0) ?? 0)) return IDNA2008_REASONS.disallowed;
  }
  return undefined;
}
