/**
 * The CSS and reference rules of the SVG sanitiser: a reference may point only to a local `#id`,
 * and CSS (a `<style>` sheet, a `style=""` or any attribute value) may hold no `url(...)` to
 * anything else and nothing that can fetch or run something. Every check here is linear in the
 * length of its input, so a hostile 512 KiB value costs one pass, never a quadratic scan.
 */

/** A reference to an element of the same document, and nothing else. */
export const LOCAL_REF = /^#[A-Za-z_][\w.:-]*$/u;

const FORBIDDEN_CSS = /@import|expression\s*\(|image-set\s*\(|-moz-binding|behavior\s*:|javascript:/iu;
/** Longest `url(...)` argument read; a longer one is unsafe (a local `#id` is never this long). */
const MAX_URL_ARGUMENT = 1024;
const LAST_CODE_POINT = 0x10ffff;

/** Drops CSS comments (`/* … *\/`) in one pass; an unterminated comment runs to the end. */
function stripComments(css: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = css.indexOf('/*', from);
    if (open < 0) return out + css.slice(from);
    out += css.slice(from, open);
    const close = css.indexOf('*/', open + 2);
    if (close < 0) return out;
    from = close + 2;
  }
}

/**
 * A CSS hex escape's character. Zero, a surrogate or a value past U+10FFFF is U+FFFD, as CSS
 * reads it (and `String.fromCodePoint` would throw on the last).
 */
function escapedChar(hex: string): string {
  const code = parseInt(hex, 16);
  const valid = code > 0 && code <= LAST_CODE_POINT && (code < 0xd800 || code > 0xdfff);
  return String.fromCodePoint(valid ? code : 0xfffd);
}

/** Decodes CSS escapes (`\75 rl(` → `url(`) and drops comments before CSS is checked. */
export function normaliseCss(css: string): string {
  return stripComments(css)
    .replace(/\\([0-9a-fA-F]{1,6})\s?/gu, (_, hex: string) => escapedChar(hex))
    .replace(/\\(.)/gsu, '$1');
}

/** The argument of one `url(` that starts at `start`, unquoted, or undefined when unreadable. */
function urlArgument(css: string, start: number): { ref: string; end: number } | undefined {
  const end = css.indexOf(')', start);
  if (end < 0 || end - start > MAX_URL_ARGUMENT) return undefined;
  const raw = css.slice(start, end).trim();
  const quoted = /^(['"])(.*)\1$/su.exec(raw);
  return { ref: (quoted ? (quoted[2] ?? '') : raw).trim(), end };
}

/** True when every `url(...)` in the CSS or attribute value points to a local `#id`. */
export function cssIsSafe(value: string): boolean {
  const css = normaliseCss(value);
  if (FORBIDDEN_CSS.test(css)) return false;
  const opener = /url\s*\(/giu;
  for (let m = opener.exec(css); m !== null; m = opener.exec(css)) {
    // A `url(` that cannot be read (no closing parenthesis, nesting, odd quotes) is unsafe.
    const arg = urlArgument(css, m.index + m[0].length);
    if (!arg || !LOCAL_REF.test(arg.ref)) return false;
    opener.lastIndex = arg.end + 1;
  }
  return true;
}
