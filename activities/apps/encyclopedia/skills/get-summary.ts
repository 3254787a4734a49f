/**
 * `encyclopedia.get_summary`: selected public metadata of each named article, with the extract
 * as sanitised plain text (CONTENT_BLOCKED when it cannot be made safe).
 */
import { requireLanguage } from '../../../../lib/encyclopedia/languages.js';
import type { EncyclopediaService } from '../upstream/service.js';
import type { Platform, SkillImplementation } from '../../../registry/types.js';
import type { EncyclopediaAppConfig } from '../config.js';
import {
  GetSummaryInputSchema,
  GetSummaryOutputSchema,
  SummaryRequestSchema,
  SummaryWorkflowOutputSchema,
  type GetSummaryInput,
  type GetSummaryOutput,
  type SummaryWorkflowOutput,
} from './schemas.js';
import { defineSkill, readOnlyCapabilities } from '../../../registry/define.js';
import { eachItem } from '../../../runtime/each-item.js';

export type GetSummarySkill = SkillImplementation<GetSummaryInput, GetSummaryOutput, SummaryWorkflowOutput>;

/** Builds the skill. */
function createGetSummarySkill(
  platform: Platform<EncyclopediaAppConfig, EncyclopediaService>,
): GetSummarySkill {
  return {
    input: GetSummaryInputSchema,
    requestItem: SummaryRequestSchema,
    defaults: { language: 'en' },
    output: GetSummaryOutputSchema,
    workflowOutput: SummaryWorkflowOutputSchema,
    async run(input, ctx) {
      const service = platform.services;
      const languages = input.requests.map((r, i) => requireLanguage(r.language, `requests[${i}].language`));
      const charge = () => ctx.meter.charge('encyclopedia');
      const results: GetSummaryOutput['results'] = await eachItem(
        input.requests,
        async (r, i, signal) => {
          const { value, cached } = await service.summary(
            { title: r.title, language: languages[i]! },
            { signal, charge },
          );
          return { ...value, cached };
        },
        { signal: ctx.signal },
      );
      return { results };
    },
    toWorkflowOutput(output) {
      const results = output.results.map(({ cached: _cached, ...summary }) => summary);
      return { results, result_count: results.length, raw: output };
    },
    billableItems: (output) => output.results.filter((r) => !r.cached).length,
    previews: (output) => output.results.map((r) => ({ title: r.title, url: r.url, type: r.type })),
  };
}

export const getSummary = defineSkill({
  id: 'get_summary',
  title: 'Get article summary',
  description:
    'Read the summaries of up to five encyclopedia articles by title: the description, the opening text as plain text, a thumbnail, a link and whether the page is a disambiguation page.',
  capabilities: readOnlyCapabilities('sync'),
  anonymousAccess: 'none',
  pricing: {
    creditsPerRequest: 1,
    freeOverSession: true,
    notes:
      'One credit per request item the cache did not answer, over an API key (GET /v1/encyclopedia/summary too); free over the workspace session.',
  },
  providers: ['encyclopedia'],
  policy: 'upstream-lookup',
  primaryFields: ['title'],
  create: createGetSummarySkill,
});
