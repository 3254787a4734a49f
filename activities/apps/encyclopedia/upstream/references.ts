/**
 * Run-time delivery of `@encyclopedia:` references: the directives are
 * removed from the message and a sources block of the resolved articles (title, language, URL,
 * a bounded sanitised extract) is appended, in reference order. Only the explicit references
 * the parser finds are looked up, at most three; a message without any never contacts the
 * upstream. A missing or blocked article is listed as such rather than failing the delivery;
 * transient upstream failures propagate, so the delivery is retried.
 */
import {
  formatSources,
  MAX_SOURCE_EXTRACT_CHARS,
  parseMessageReferences,
  type SourceContext,
} from '../../../../lib/encyclopedia/references.js';
import { SkillflowError } from '../../../../lib/errors/skillflow-error.js';
import { toSafePlainText } from '../../../../lib/text/safe-plain-text.js';
import type { EncyclopediaService } from './service.js';

/** Rewrites a rendered message: directives out, sources block in. */
export type ReferenceResolver = (message: string, signal: AbortSignal) => Promise<string>;

const UNRESOLVED: Partial<Record<string, string>> = {
  NOT_FOUND: 'not found',
  CONTENT_BLOCKED: 'content withheld',
};

/** The resolver over one lookup service. */
export function referenceResolver(service: EncyclopediaService): ReferenceResolver {
  return async (message, signal) => {
    const parsed = parseMessageReferences(message);
    if (parsed.references.length + parsed.dropped + parsed.malformed === 0) return message;
    const sources: SourceContext[] = [];
    for (const ref of parsed.references) {
      try {
        const { value } = await service.summary(ref, { signal });
        const extract = toSafePlainText(value.extract, MAX_SOURCE_EXTRACT_CHARS);
        sources.push({
          title: value.title,
          language: value.language,
          url: value.url,
          extract: extract.ok ? extract.text : '',
        });
      } catch (err) {
        const note = err instanceof SkillflowError ? UNRESOLVED[err.code] : undefined;
        if (!note) throw err;
        sources.push({ title: ref.title, language: ref.language, url: '', extract: note });
      }
    }
    return [parsed.text, formatSources(sources)].filter((part) => part !== '').join('\n\n');
  };
}
