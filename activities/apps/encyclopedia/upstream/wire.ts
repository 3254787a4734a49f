/**
 * MediaWiki wire shapes (design/upstream-wire-notes.md "Encyclopedia"), only the fields we read.
 * Everything else the upstream sends (wikibase_item, originalimage, extract_html, revision, …)
 * is dropped here and never reaches a client.
 */
import { z } from 'zod';

/** `GET /w/rest.php/v1/search/title?q=&limit=`. */
export const TitleSearchWireSchema = z.object({
  pages: z.array(
    z.object({
      id: z.number(),
      key: z.string().min(1),
      title: z.string().min(1),
      description: z.string().nullish(),
      thumbnail: z
        .object({ url: z.string().min(1), width: z.number().nullish(), height: z.number().nullish() })
        .nullish(),
    }),
  ),
});
export type TitleSearchWire = z.infer<typeof TitleSearchWireSchema>;

/** `GET /api/rest_v1/page/summary/{title}`. */
export const SummaryWireSchema = z.object({
  type: z.string(),
  title: z.string().min(1),
  titles: z
    .object({ canonical: z.string().min(1), normalized: z.string().min(1) })
    .partial()
    .optional(),
  description: z.string().optional(),
  extract: z.string().optional(),
  thumbnail: z.object({ source: z.string().min(1), width: z.number(), height: z.number() }).optional(),
  content_urls: z.object({ desktop: z.object({ page: z.string().min(1) }) }).optional(),
});
export type SummaryWire = z.infer<typeof SummaryWireSchema>;

/** `GET /w/api.php?action=query&prop=pageprops&ppprop=disambiguation&redirects=1&formatversion=2`. */
export const PagePropsWireSchema = z.object({
  query: z
    .object({
      normalized: z.array(z.object({ from: z.string(), to: z.string() })).optional(),
      redirects: z.array(z.object({ from: z.string(), to: z.string() })).optional(),
      pages: z
        .array(
          z.object({
            title: z.string(),
            missing: z.boolean().optional(),
            pageprops: z.object({ disambiguation: z.string().optional() }).optional(),
          }),
        )
        .default([]),
    })
    .optional(),
});
export type PagePropsWire = z.infer<typeof PagePropsWireSchema>;
