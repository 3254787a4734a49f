/**
 * The encyclopedia routes (/v1/encyclopedia/*): title search and article summary. Answers are
 * the REST bodies, typed from the skills' generated outputs (the same public metadata).
 */
import type { EncyclopediaGetSummaryOutput, EncyclopediaSearchArticlesOutput } from './generated.js';
import type { Transport } from './http.js';

/** The body of GET /v1/encyclopedia/search. */
export type EncyclopediaSearchResult = EncyclopediaSearchArticlesOutput['results'][number];
/** The body of GET /v1/encyclopedia/summary. */
export type EncyclopediaSummary = EncyclopediaGetSummaryOutput['results'][number];

/** `client.encyclopedia`. */
export interface EncyclopediaClient {
  /** Ordered titles, best match first, disambiguation pages marked; `limit` 1-10. */
  search(query: { query: string; language?: string; limit?: number }): Promise<EncyclopediaSearchResult>;
  /** Selected public metadata of one article by canonical title. */
  summary(query: { title: string; language?: string }): Promise<EncyclopediaSummary>;
}

/** Creates `client.encyclopedia`. */
export function createEncyclopediaClient(http: Transport): EncyclopediaClient {
  return {
    search: async ({ query, language, limit }) =>
      (
        await http.send<EncyclopediaSearchResult>({
          method: 'GET',
          path: '/v1/encyclopedia/search',
          query: { query, language, limit: limit === undefined ? undefined : String(limit) },
        })
      ).body,
    summary: async ({ title, language }) =>
      (
        await http.send<EncyclopediaSummary>({
          method: 'GET',
          path: '/v1/encyclopedia/summary',
          query: { title, language },
        })
      ).body,
  };
}
