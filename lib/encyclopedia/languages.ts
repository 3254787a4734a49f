/**
 * The encyclopedia's language allow-list (spec 2 rule 4.3, 7): only these editions are ever
 * contacted. A requested code is normalised first: `de-DE` → `de`, `pt_BR` → `pt`, `EN` → `en`.
 * Anything else is UNSUPPORTED_LANGUAGE (400), never a guess.
 */
import { SkillflowError } from '../errors/skillflow-error.js';

/** Supported editions, in documentation order. */
export const ENCYCLOPEDIA_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'sv', 'ja'] as const;

/** A supported language code. */
export type EncyclopediaLanguage = (typeof ENCYCLOPEDIA_LANGUAGES)[number];

const SUPPORTED: ReadonlySet<string> = new Set(ENCYCLOPEDIA_LANGUAGES);

/** The supported code `raw` names (its primary subtag, lower-cased), or undefined. */
export function normaliseLanguage(raw: string): EncyclopediaLanguage | undefined {
  const m = /^([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})*$/.exec(raw.trim());
  const primary = m?.[1]?.toLowerCase();
  return primary !== undefined && SUPPORTED.has(primary) ? (primary as EncyclopediaLanguage) : undefined;
}

/** The normalised language, or UNSUPPORTED_LANGUAGE naming `path` (never the value). */
export function requireLanguage(raw: string, path = 'language'): EncyclopediaLanguage {
  const language = normaliseLanguage(raw);
  if (language) return language;
  throw new SkillflowError(
    'UNSUPPORTED_LANGUAGE',
    `${path} is not a supported encyclopedia language; see details.supported.`,
    { path, supported: [...ENCYCLOPEDIA_LANGUAGES] },
  );
}
