/**
 * `@encyclopedia:<language>:<percent_encoded_title>` references in message text: at most {@link MAX_REFERENCES} per message, kept in order, each removed from the ordinary
 * text. Pure: finding and parsing never contacts anything; only the explicit references found
 * here are ever resolved (activities/apps/encyclopedia/upstream/references.ts), and the sources block
 * built from them holds bounded, already sanitised text only.
 */
import { normaliseLanguage, type EncyclopediaLanguage } from './languages.js';

/** References resolved per message. */
export const MAX_REFERENCES = 3;
/** Longest decoded title (MediaWiki's limit is 255 bytes). */
export const MAX_TITLE_CHARS = 255;
/** Longest extract one source keeps in the sources block. */
export const MAX_SOURCE_EXTRACT_CHARS = 600;

const PREFIX = '@encyclopedia:';
/** Characters MediaWiki never allows in a title (plus controls). */
// eslint-disable-next-line no-control-regex -- controls are refused in titles
const FORBIDDEN_TITLE = /[#<>[\]{}|\u0000-\u001F\u007F]/;

/** One directive as written: where it sits and its text after the prefix. */
export interface Directive {
  start: number;
  end: number;
  body: string;
  /** It contains a template expression (`{{…}}`): checked only after rendering. */
  dynamic: boolean;
}

/** A parsed reference. */
export interface EncyclopediaReference {
  language: EncyclopediaLanguage;
  /** Decoded, with underscores as spaces. */
  title: string;
}

export type DirectiveParse = { ok: true; reference: EncyclopediaReference } | { ok: false; message: string };

/** Every `@encyclopedia:` directive in `text`, in order. A `{{…}}` span inside one is kept whole. */
export function findDirectives(text: string): Directive[] {
  const out: Directive[] = [];
  let from = 0;
  for (;;) {
    const start = text.indexOf(PREFIX, from);
    if (start < 0) return out;
    let end = start + PREFIX.length;
    let dynamic = false;
    while (end < text.length && !/\s/.test(text[end]!)) {
      if (text.startsWith('{{', end)) {
        const close = text.indexOf('}}', end + 2);
        dynamic = true;
        end = close < 0 ? text.length : close + 2;
      } else end += 1;
    }
    // Sentence punctuation after a reference is not part of it (encode it as %2E etc.).
    while (end > start + PREFIX.length && /[.,;!?]/.test(text[end - 1]!)) end -= 1;
    if (text[end - 1] === ')' && !balanced(text.slice(start, end))) end -= 1;
    out.push({ start, end, body: text.slice(start + PREFIX.length, end), dynamic });
    from = Math.max(end, start + PREFIX.length);
  }
}

function balanced(s: string): boolean {
  return (s.match(/\(/g)?.length ?? 0) >= (s.match(/\)/g)?.length ?? 0);
}

/** Parses a directive body `<language>:<percent_encoded_title>`; messages never quote it. */
export function parseDirective(body: string): DirectiveParse {
  const colon = body.indexOf(':');
  if (colon <= 0) return { ok: false, message: 'must be @encyclopedia:<language>:<percent_encoded_title>' };
  const language = normaliseLanguage(body.slice(0, colon));
  if (!language) return { ok: false, message: 'names a language that is not supported' };
  const encoded = body.slice(colon + 1);
  if (encoded === '') return { ok: false, message: 'has an empty title' };
  if (!/^[A-Za-z0-9%_.~\-()'!*,:@$+;=]+$/.test(encoded))
    return { ok: false, message: 'has a title that is not percent-encoded' };
  let title: string;
  try {
    title = decodeURIComponent(encoded).replaceAll('_', ' ').replace(/\s+/g, ' ').trim();
  } catch {
    return { ok: false, message: 'has a title with broken percent-encoding' };
  }
  if (title === '' || FORBIDDEN_TITLE.test(title)) return { ok: false, message: 'has an invalid title' };
  if (title.length > MAX_TITLE_CHARS)
    return { ok: false, message: `has a title longer than ${MAX_TITLE_CHARS} characters` };
  return { ok: true, reference: { language, title } };
}

/** The text with directives removed and the references to resolve. */
export interface ParsedMessage {
  text: string;
  /** The first {@link MAX_REFERENCES} well-formed references, in order. */
  references: EncyclopediaReference[];
  /** Well-formed references past the limit (removed, not resolved). */
  dropped: number;
  /** Malformed directives (removed, not resolved). */
  malformed: number;
}

/** Removes every directive from `text` and keeps up to three well-formed references. */
export function parseMessageReferences(text: string): ParsedMessage {
  const references: EncyclopediaReference[] = [];
  let dropped = 0;
  let malformed = 0;
  let out = '';
  let at = 0;
  for (const d of findDirectives(text)) {
    out += text.slice(at, d.start);
    at = d.end;
    const parsed = parseDirective(d.body);
    if (!parsed.ok) malformed += 1;
    else if (references.length < MAX_REFERENCES) references.push(parsed.reference);
    else dropped += 1;
  }
  out += text.slice(at);
  const cleaned = out
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/[ \t]+([.,;!?])/g, '$1')
    .replace(/[,;:]+([.!?])/g, '$1')
    .trim();
  return { text: cleaned, references, dropped, malformed };
}

/** One resolved article as source context: public metadata, sanitised and bounded. */
export interface SourceContext {
  title: string;
  language: string;
  url: string;
  extract: string;
}

/** The sources block appended to a message, numbered in reference order. */
export function formatSources(sources: readonly SourceContext[]): string {
  if (sources.length === 0) return '';
  const lines = sources.map((s, i) => {
    const head = `[${i + 1}] ${s.title} (${s.language}) ${s.url}`;
    return s.extract ? `${head}\n    ${s.extract}` : head;
  });
  return ['Sources:', ...lines].join('\n');
}
