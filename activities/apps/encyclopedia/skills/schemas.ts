/**
 * Inputs and outputs of the encyclopedia skills (activities/apps/encyclopedia/app.ts). The
 * language is checked against the allow-list at run time, so an unsupported one is the visible
 * UNSUPPORTED_LANGUAGE error, not a schema failure.
 */
import { z } from 'zod';
import { requestList } from '../../../registry/request-items.js';
import { LanguageSchema } from '../../../../lib/encyclopedia/languages.js';
import { ArticleMatchSchema, ArticleSummarySchema, SearchResultSchema } from '../upstream/articles.js';

export const MAX_QUERY_CHARS = 200;
export const MAX_SEARCH_LIMIT = 10;

const language = LanguageSchema;

export const SearchRequestSchema = z
  .object({
    query: z
      .string()
      .trim()
      .min(1)
      .max(MAX_QUERY_CHARS)
      .describe('Title text to search, partial or run-together.'),
    language: language.default('en'),
    limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).default(5).describe('Titles to return, 1 to 10.'),
  })
  .strict();

export const SearchArticlesInputSchema = z
  .object({
    requests: requestList(SearchRequestSchema, 'One to five title searches; the output keeps this order.'),
  })
  .strict();
export type SearchArticlesInput = z.output<typeof SearchArticlesInputSchema>;

export const SearchArticlesOutputSchema = z.object({
  results: z
    .array(SearchResultSchema.extend({ cached: z.boolean() }))
    .describe('One entry per request, in order.'),
});
export type SearchArticlesOutput = z.infer<typeof SearchArticlesOutputSchema>;

export const SearchWorkflowOutputSchema = z
  .object({
    results: z
      .array(ArticleMatchSchema.extend({ request_index: z.number().int(), language: z.string() }))
      .describe('Every title of every request, best match first within each request.'),
    result_count: z.number().int().nonnegative(),
    raw: SearchArticlesOutputSchema,
  })
  .describe('Workflow-visible output of encyclopedia.search_articles.');
export type SearchWorkflowOutput = z.infer<typeof SearchWorkflowOutputSchema>;

export const SummaryRequestSchema = z
  .object({
    title: z.string().trim().min(1).max(255).describe('The canonical title (spaces or underscores).'),
    language: language.default('en'),
  })
  .strict();

export const GetSummaryInputSchema = z
  .object({
    requests: requestList(
      SummaryRequestSchema,
      'One to five articles by title; the output keeps this order.',
    ),
  })
  .strict();
export type GetSummaryInput = z.output<typeof GetSummaryInputSchema>;

export const GetSummaryOutputSchema = z.object({
  results: z.array(ArticleSummarySchema.extend({ cached: z.boolean() })).describe('One summary per request.'),
});
export type GetSummaryOutput = z.infer<typeof GetSummaryOutputSchema>;

export const SummaryWorkflowOutputSchema = z
  .object({
    results: z.array(ArticleSummarySchema),
    result_count: z.number().int().nonnegative(),
    raw: GetSummaryOutputSchema,
  })
  .describe('Workflow-visible output of encyclopedia.get_summary.');
export type SummaryWorkflowOutput = z.infer<typeof SummaryWorkflowOutputSchema>;
