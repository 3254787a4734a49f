/**
 * Fail-closed plain text for upstream prose (summary prose is sanitised before
 * it becomes context). The input must already be plain text: anything that looks like markup,
 * an entity, a script URL or a bidirectional override cannot be made safe by guessing, so the
 * answer is `undefined` (the caller reports CONTENT_BLOCKED) instead of a cleaned-up copy.
 * Harmless noise is normalised: NFC, other control characters dropped, whitespace collapsed,
 * the length bounded at a word boundary.
 */

/** Markup, entities and script-capable URL schemes: their presence blocks the text. */
const UNSAFE = [
  /<[A-Za-z!/?]/, // a tag, comment, doctype or processing instruction
  /&(?:#\d+|#x[0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]{1,31});/, // an HTML entity
  /\b(?:javascript|vbscript|data)\s*:/i,
  /[\u202A-\u202E\u2066-\u2069]/, // bidirectional embeddings, overrides and isolates
] as const;

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
  const text = input.normalize('NFC');
  if (UNSAFE.some((re) => re.test(text))) return { ok: false, reason: 'markup' };
  const flat = text.replace(NOISE, ' ').replace(/\s+/g, ' ').trim();
  return { ok: true, text: bound(flat, maxChars) };
}

function bound(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, Math.max(0, maxChars - ELLIPSIS.length));
  const space = cut.lastIndexOf(' ');
  return (space > cut.length / 2 ? cut.slice(0, space) : cut).trimEnd() + ELLIPSIS;
}
