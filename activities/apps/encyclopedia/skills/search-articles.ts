/**
 * `encyclopedia.search_articles`: ordered public title metadata per request, best match first,
 * disambiguation pages marked (service in activities/apps/encyclopedia/upstream/service.ts).
 */
import { requireLanguage } from '../../../../lib/encyclopedia/languages.js';
import type { EncyclopediaService } from '../upstream/service.js';
import type { Platform, SkillImplementation } from '../../../registry/types.js';
import type { EncyclopediaAppConfig } from '../config.js';
import {
  SearchArticlesInputSchema,
  SearchArticlesOutputSchema,
  SearchRequestSchema,
  SearchWorkflowOutputSchema,
  type SearchArticlesInput,
  type SearchArticlesOutput,
  type SearchWorkflowOutput,
} from './schemas.js';
import { defineSkill, readOnlyCapabilities } from '../../../registry/define.js';
import { eachItem } from '../../../runtime/each-item.js';

export type SearchArticlesSkill = SkillImplementation<
  SearchArticlesInput,
  SearchArticlesOutput,
  SearchWorkflowOutput
>;

/** Builds the skill. */
function createSearchArticlesSkill(
  platform: Platform<EncyclopediaAppConfig, EncyclopediaService>,
): SearchArticlesSkill {
  return {
    input: SearchArticlesInputSchema,
    requestItem: SearchRequestSchema,
    defaults: { language: 'en', limit: 5 },
    output: SearchArticlesOutputSchema,
    workflowOutput: SearchWorkflowOutputSchema,
    async run(input, ctx) {
      const service = platform.services;
      const languages = input.requests.map((r, i) => requireLanguage(r.language, `requests[${i}].language`));
      const charge = () => ctx.meter.charge('encyclopedia');
      const results: SearchArticlesOutput['results'] = await eachItem(
        input.requests,
        async (r, i, signal) => {
          const { value, cached } = await service.search(
            { query: r.query, language: languages[i]!, limit: r.limit },
            { signal, charge },
          );
          return { ...value, cached };
        },
        { signal: ctx.signal },
      );
      return { results };
    },
    toWorkflowOutput(output) {
      const results = output.results.flatMap((r, i) =>
        r.results.map((item) => ({ ...item, request_index: i, language: r.language })),
      );
      return { results, result_count: results.length, raw: output };
    },
    billableItems: (output) => output.results.filter((r) => !r.cached).length,
    previews: (output) =>
      output.results.flatMap((r) =>
        r.results.slice(0, 3).map((item) => ({ title: item.title, url: item.url })),
      ),
  };
}

export const searchArticles = defineSkill({
  id: 'search_articles',
  title: 'Search articles',
  description:
    'Search encyclopedia article titles, up to five searches at once. Each answers the matching articles best first, with a short description, a link and a thumbnail; disambiguation pages are marked.',
  capabilities: readOnlyCapabilities('sync'),
  anonymousAccess: 'none',
  pricing: {
    creditsPerRequest: 1,
    freeOverSession: true,
    notes:
      'One credit per request item the cache did not answer, over an API key (GET /v1/encyclopedia/search too); free over the workspace session.',
  },
  providers: ['encyclopedia'],
  policy: 'upstream-lookup',
  primaryFields: ['query'],
  create: createSearchArticlesSkill,
});
