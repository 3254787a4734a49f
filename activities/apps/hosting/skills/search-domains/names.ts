/**
 * Domain name rules: names are validated locally before any upstream call.
 * IDN handling is UTS-46 non-transitional (so `ß` stays `ß` and becomes `xn--strae-oqa`); the
 * mapped form of every non-ASCII label must then pass the IDNA2008 code point rules, so a label
 * with an emoji or symbol is invalid although UTS-46 maps it. The canonical form of every name is
 * lowercase ASCII without a trailing dot.
 */
import { toASCII, toUnicode } from 'tr46';
import { idna2008Violation } from './idna2008.js';
import { reduceBrief } from './keyword.js';

const IDNA = {
  checkHyphens: true,
  checkBidi: true,
  checkJoiners: true,
  useSTD3ASCIIRules: true,
  transitionalProcessing: false,
} as const;

export const MAX_LABEL_OCTETS = 63;
export const MAX_NAME_OCTETS = 253;

const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const WHITESPACE = /\s/u;
const INTERIOR_DOT = /[\p{L}\p{N}]\.[\p{L}\p{N}]/u;
/** A query of at most this many words with an interior dot is a domain name typed with a space. */
const NAME_ATTEMPT_MAX_WORDS = 3;

/** Outcome of a name check: the canonical ASCII and display forms, or why it is invalid. */
export type NameCheck = { ok: true; ascii: string; unicode: string } | { ok: false; reason: string };

/** Why one label fails, for a message that names the broken rule (never the label itself). */
function diagnoseLabel(label: string): string {
  if (label.startsWith('-') || label.endsWith('-')) return 'a label starts or ends with a hyphen';
  if (label.slice(2, 4) === '--') return 'a label has "--" at positions 3-4 and is not a valid IDN label';
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(label)) return 'a label may contain only letters, digits and hyphens';
  return mappedViolation(label) ?? 'a label is not a valid internationalised label';
}

/**
 * The IDNA2008 rule the UTS-46-mapped form of a non-ASCII label breaks, if any. Mapping may turn
 * a full-width dot into a separator, so each part is checked on its own.
 */
function mappedViolation(label: string): string | undefined {
  const mapped = toUnicode(label, IDNA).domain;
  for (const part of mapped.split('.')) {
    const reason = idna2008Violation(part);
    if (reason) return reason;
  }
  return undefined;
}

/** Converts one label to canonical ASCII, or explains why it is invalid. */
export function checkLabel(label: string): NameCheck {
  if (label.length === 0) return { ok: false, reason: 'a label is empty' };
  if (WHITESPACE.test(label)) return { ok: false, reason: 'a domain name cannot contain spaces' };
  if (label.includes('.')) return { ok: false, reason: 'the extension is not a single label' };
  const ascii = toASCII(label, IDNA);
  if (ascii === null || ascii.length === 0) return { ok: false, reason: diagnoseLabel(label.toLowerCase()) };
  if (ascii.length > MAX_LABEL_OCTETS) {
    return { ok: false, reason: `a label is longer than ${MAX_LABEL_OCTETS} octets` };
  }
  // tr46 already enforces these; the explicit check keeps the rule visible and independent of it.
  if (!LDH_LABEL.test(ascii) || (ascii.slice(2, 4) === '--' && !ascii.startsWith('xn--'))) {
    return { ok: false, reason: diagnoseLabel(ascii) };
  }
  if (ascii.startsWith('xn--')) {
    // An xn-- label is checked in its decoded form, whether it was sent as Unicode or as punycode.
    const reason = mappedViolation(ascii);
    if (reason) return { ok: false, reason };
  }
  return { ok: true, ascii, unicode: displayName(ascii) };
}

/**
 * Checks a full domain name (at least two labels; one trailing dot allowed and stripped) and
 * returns its canonical ASCII form and its Unicode display form.
 */
export function checkDomainName(name: string): NameCheck {
  const trimmed = name.trim();
  if (WHITESPACE.test(trimmed)) return { ok: false, reason: 'a domain name cannot contain spaces' };
  const bare = trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed;
  // Full-width and ideographic dots are label separators in UTS-46.
  const labels = bare.split(/[.\u3002\uff0e\uff61]/u);
  if (labels.length < 2) return { ok: false, reason: 'a domain name needs at least two labels' };
  const ascii: string[] = [];
  for (const label of labels) {
    const checked = checkLabel(label);
    if (!checked.ok) return checked;
    ascii.push(checked.ascii);
  }
  const joined = ascii.join('.');
  if (joined.length > MAX_NAME_OCTETS) {
    return { ok: false, reason: `the name is longer than ${MAX_NAME_OCTETS} octets` };
  }
  if (/^[0-9]+$/.test(ascii[ascii.length - 1] ?? '')) {
    return { ok: false, reason: 'the top-level label cannot be all digits' };
  }
  return { ok: true, ascii: joined, unicode: displayName(joined) };
}

/** The canonical ASCII form of a name, or undefined when it is not a valid domain name. */
export function canonicalDomain(name: string): string | undefined {
  const checked = checkDomainName(name);
  return checked.ok ? checked.ascii : undefined;
}

/** The Unicode display form of a canonical ASCII name (`xn--bcher-kva.ai` → `bücher.ai`). */
export function displayName(ascii: string): string {
  const { domain, error } = toUnicode(ascii, IDNA);
  return error ? ascii : domain;
}

/** Everything after the first label (`shop.co.uk` → `co.uk`); the extension a name is under. */
export function suffixOf(domain: string): string {
  const dot = domain.indexOf('.');
  return dot < 0 ? '' : domain.slice(dot + 1);
}

/** Whether a canonical name sits directly under one of the requested extensions. */
export function matchesSuffixes(domain: string, suffixes: readonly string[] | undefined): boolean {
  if (!suffixes || suffixes.length === 0) return true;
  return suffixes.includes(suffixOf(domain));
}

/** What the query asks for: an exact name, or a keyword for the suggestion search. */
export type QueryTarget =
  | { kind: 'fqdn'; domain: string; domain_unicode: string }
  | {
      kind: 'keyword';
      /** The keyword as sent upstream (a valid label in Unicode form). */
      keyword: string;
      /** The keyword's ASCII (punycode) form. */
      keyword_ascii: string;
      /** True when a multi-word brief was reduced to this keyword. */
      reduced: boolean;
    };

/** Result of classifying a query. */
export type QueryCheck = { ok: true; target: QueryTarget } | { ok: false; message: string };

/**
 * Classifies `query`:
 * - no whitespace and an interior dot → an FQDN, validated strictly (exact lookup);
 * - at most three words, one with an interior dot (`my shop.com`) → a name with a space: invalid;
 * - one word → a keyword, which must be a valid label;
 * - several words → a natural-language brief, reduced to one keyword ({@link reduceBrief}).
 */
export function classifyQuery(query: string): QueryCheck {
  const text = query.trim().normalize('NFC');
  if (text.length === 0) return { ok: false, message: 'The query is empty.' };
  const words = text.split(/\s+/u);
  if (words.length === 1) {
    const bare = text.endsWith('.') ? text.slice(0, -1) : text;
    if (/[.\u3002\uff0e\uff61]/u.test(bare)) {
      const name = checkDomainName(text);
      if (!name.ok) return { ok: false, message: `Not a valid domain name: ${name.reason}.` };
      return { ok: true, target: { kind: 'fqdn', domain: name.ascii, domain_unicode: name.unicode } };
    }
    const label = checkLabel(bare);
    if (!label.ok) return { ok: false, message: `Not a valid keyword: ${label.reason}.` };
    return {
      ok: true,
      target: { kind: 'keyword', keyword: label.unicode, keyword_ascii: label.ascii, reduced: false },
    };
  }
  if (words.length <= NAME_ATTEMPT_MAX_WORDS && words.some((w) => INTERIOR_DOT.test(w))) {
    return { ok: false, message: 'Not a valid domain name: a domain name cannot contain spaces.' };
  }
  const keyword = reduceBrief(text);
  const label = keyword === undefined ? undefined : checkLabel(keyword);
  if (!label?.ok) {
    return { ok: false, message: 'The query has no usable keyword; pass a short name or a domain name.' };
  }
  return {
    ok: true,
    target: { kind: 'keyword', keyword: label.unicode, keyword_ascii: label.ascii, reduced: true },
  };
}
