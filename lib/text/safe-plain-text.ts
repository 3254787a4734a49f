/**
 * Fail-closed plain text for upstream prose (summary prose is sanitised before it becomes
 * context). Prose passes, also prose with code and maths in it (`List<T>`, `0<x<1`,
 * `if (a<b && c>d)`); a text that holds markup, a script URL or a bidirectional override cannot
 * be made safe by guessing, so it is blocked (the caller reports CONTENT_BLOCKED) instead of
 * served as a cleaned-up copy. What counts as markup is the rule of ./markup-check.ts.
 *
 * Character references are decoded as HTML decodes them, again until decoding changes nothing
 * (`AT&amp;T` and `AT&amp;amp;T` → `AT&T`, `&lt;` → `<`), so the answer is plain text that
 * decodes to itself and sanitises to itself. The rule holds for the text as it came and after
 * every decoding, so markup written as references is blocked too (`&lt;script&gt;`,
 * `&amp;lt;script&amp;gt;`, `javascript&colon;`); so is a text still changing after
 * {@link MAX_DECODINGS} decodings.
 * Harmless noise is normalised: NFC, other control characters dropped, whitespace collapsed, the
 * length bounded at a word boundary.
 */
import { decodeReferences, readsAsMarkup } from './markup-check.js';

/** How many layers of character references a text may hold. */
export const MAX_DECODINGS = 3;

/** Control and format characters dropped silently (tab and newline become spaces). */
// eslint-disable-next-line no-control-regex -- the point is to match control characters
const NOISE = /[\u0000-\u001F\u007F-\u009F\u200B\u200E\u200F\uFEFF]/g;

const ELLIPSIS = '…';

/** Why a text was blocked, for counters (never the text itself). */
export type BlockReason = 'not_text' | 'markup';

/** The sanitised text, or the reason it cannot be made safe. */
export type SafeText = { ok: true; text: string } | { ok: false; reason: BlockReason };

/** Sanitises `input` to at most `maxChars` characters of plain text, or blocks it. */
export function toSafePlainText(input: unknown, maxChars: number): SafeText {
  if (typeof input !== 'string') return { ok: false, reason: 'not_text' };
  let text = input.normalize('NFC');
  for (let decodings = 0; decodings <= MAX_DECODINGS; decodings++) {
    const decoded = decodeReferences(text);
    if (readsAsMarkup(text) || (decoded !== text && readsAsMarkup(decoded))) break;
    const next = flatten(decoded);
    if (next === text) return { ok: true, text: bound(text, maxChars) };
    text = next;
  }
  return { ok: false, reason: 'markup' };
}

function flatten(text: string): string {
  return text.normalize('NFC').replace(NOISE, ' ').replace(/\s+/g, ' ').trim();
}

function bound(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, Math.max(0, maxChars - ELLIPSIS.length));
  const space = cut.lastIndexOf(' ');
  return (space > cut.length / 2 ? cut.slice(0, space) : cut).trimEnd() + ELLIPSIS;
}
