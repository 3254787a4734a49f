/**
 * The public article metadata the service returns: ordered title metadata
 * with a disambiguation mark, and selected summary fields. Declared once here; the routes,
 * the skills and the OpenAPI document use these schemas. Never wikidata ids, the original
 * image or raw HTML.
 */
import { z } from 'zod';
import { ENCYCLOPEDIA_LANGUAGES } from '../../../../lib/encyclopedia/languages.js';

export const ThumbnailSchema = z
  .object({
    url: z.string().describe("The image through the service's proxy (GET /v1/encyclopedia/thumbnail)."),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
  })
  .describe('A thumbnail served through the image proxy.');

const common = {
  title: z.string().describe('The canonical title, with spaces.'),
  description: z.string().nullable().describe('Short description, plain text.'),
  url: z.string().describe("The article's page URL."),
  thumbnail: ThumbnailSchema.nullable(),
  disambiguation: z.boolean().describe('True for a disambiguation page (an ambiguous name).'),
  reference: z.string().describe('The `@encyclopedia:<language>:<title>` reference to this article.'),
};

export const ArticleMatchSchema = z.object(common).describe('One title of a search, best match first.');
export type ArticleMatch = z.infer<typeof ArticleMatchSchema>;

export const SearchResultSchema = z.object({
  language: z.enum(ENCYCLOPEDIA_LANGUAGES),
  results: z.array(ArticleMatchSchema),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;

export const ArticleSummarySchema = z
  .object({
    ...common,
    language: z.enum(ENCYCLOPEDIA_LANGUAGES),
    type: z.enum(['standard', 'disambiguation', 'no-extract', 'mainpage', 'other']),
    extract: z.string().describe('The summary as sanitised plain text (may be empty).'),
  })
  .describe('Selected public metadata of one article.');
export type ArticleSummary = z.infer<typeof ArticleSummarySchema>;

/** The reference of an article: `@encyclopedia:<language>:<percent-encoded title>`. */
export function referenceOf(language: string, title: string): string {
  return `@encyclopedia:${language}:${encodeURIComponent(title.replaceAll(' ', '_'))}`;
}
