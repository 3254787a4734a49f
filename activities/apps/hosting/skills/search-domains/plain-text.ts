/**
 * Reduces upstream HTML (a suggestion's `restriction`) to bounded plain text. The output is
 * text, not markup: consumers must still escape it, but no tag, script body or control
 * character survives, and entities are decoded exactly once.
 */

/** Default bound for restriction text, in characters. */
export const MAX_RESTRICTION_LENGTH = 500;

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  laquo: '«',
  raquo: '»',
  euro: '€',
  copy: '©',
  reg: '®',
  auml: 'ä',
  ouml: 'ö',
  uuml: 'ü',
  Auml: 'Ä',
  Ouml: 'Ö',
  Uuml: 'Ü',
  szlig: 'ß',
};

/** Control characters, zero-width characters and bidi overrides (they could disguise text). */
const INVISIBLE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069]/gu;

function decodeCodePoint(code: number): string {
  const valid = Number.isInteger(code) && code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
  return valid ? String.fromCodePoint(code) : '\uFFFD';
}

/** Decodes named (a small known set) and numeric entities; unknown names stay as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z]{2,8});/gu, (whole, body: string) => {
    if (body.startsWith('#x') || body.startsWith('#X')) return decodeCodePoint(parseInt(body.slice(2), 16));
    if (body.startsWith('#')) return decodeCodePoint(parseInt(body.slice(1), 10));
    return NAMED_ENTITIES[body] ?? whole;
  });
}

/**
 * HTML → plain text: drops script/style bodies, comments and every tag (block tags become a
 * space), decodes entities, removes control characters, collapses whitespace and cuts to
 * `maxLength` characters (ending with "…" when cut). Returns null for empty input.
 */
export function htmlToPlainText(
  html: string | null | undefined,
  maxLength: number = MAX_RESTRICTION_LENGTH,
): string | null {
  if (html === null || html === undefined) return null;
  const stripped = html
    .replace(/<!--[\s\S]*?(?:-->|$)/gu, ' ')
    .replace(/<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)/giu, ' ')
    .replace(/<[^>]*(?:>|$)/gu, ' ');
  const text = decodeEntities(stripped).replace(INVISIBLE, '').replace(/\s+/gu, ' ').trim();
  if (text.length === 0) return null;
  const chars = [...text];
  return chars.length <= maxLength
    ? text
    : `${chars
        .slice(0, maxLength - 1)
        .join('')
        .trimEnd()}…`;
}
