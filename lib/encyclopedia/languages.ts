/**
 * The encyclopedia's language allow-list: only these editions are ever
 * contacted. A requested code is normalised first: `de-DE` → `de`, `pt_BR` → `pt`, `EN` → `en`.
 * Anything else is UNSUPPORTED_LANGUAGE (400), never a guess.
 */
import { z } from 'zod';
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

/**
 * A `language` field. The document states the ten codes as an enum, so every value it allows is
 * accepted; the server also takes their regional and case forms (`de-DE`, `pt_BR`, `EN`) and
 * normalises them, a leniency for clients that send a locale. Any other value is
 * UNSUPPORTED_LANGUAGE (400), checked where the language is used.
 */
export const LanguageSchema = z
  .string()
  .min(2)
  .max(35)
  .meta({ enum: [...ENCYCLOPEDIA_LANGUAGES] })
  .describe(
    `Language code of the edition: ${ENCYCLOPEDIA_LANGUAGES.join(', ')}. Regional and upper-case forms of these (\`de-DE\`, \`pt_BR\`, \`EN\`) are also accepted and normalised to the code; any other value is 400 UNSUPPORTED_LANGUAGE.`,
  );

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
