/**
 * Group output and the skill's workflow-visible view. A group that fails keeps its
 * place (output order = request order) with `error` set; siblings are unaffected. Only when every
 * group failed does the workflow view carry a top-level error.
 */
import { z } from 'zod';
import { ERROR_CATALOGUE, type ErrorCode } from '../../../../../lib/errors/catalogue.js';
import type { PreparedGroup } from './input.js';
import type { CheckedCandidate } from './joiner.js';
import {
  applyRelevance,
  isRelevanceRequested,
  RelevanceAppliedSchema,
  type RelevanceOutcome,
} from './relevance.js';
import { DomainResultSchema, mapResult, type DomainResult, type ResultContext } from './result.js';
import { buildCheckedPool } from './selection.js';
import { warning, WarningSchema, type Warning } from './warnings.js';

const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]];

export const GroupErrorSchema = z
  .object({
    code: z.enum(ERROR_CODES).describe('Error code from the service catalogue, e.g. DEADLINE_EXCEEDED.'),
    message: z.string().describe('Human-readable explanation.'),
    retry_after: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe('With UPSTREAM_RATE_LIMITED: seconds the shop asked us to wait (its Retry-After).'),
  })
  .describe('Why the group failed, or (with partial=true) why it is incomplete.');
export type GroupError = z.output<typeof GroupErrorSchema>;

export const GroupOutputSchema = z
  .object({
    id: z.string().nullable().describe('The request id, echoed; null when none was given.'),
    query: z.string().describe('The query as given.'),
    searched_query: z.string().optional().describe('What was searched upstream, when it differs from query.'),
    country: z.string().describe('Tax country used (default DE, always returned).'),
    currency: z.string().describe('Quote currency requested.'),
    results: z.array(DomainResultSchema).max(20).describe('Selected domains, at most max_results.'),
    checked_results: z
      .array(DomainResultSchema)
      .max(40)
      .describe('Every checked candidate (at most 40), including in-use and unknown.'),
    relevance_applied: RelevanceAppliedSchema,
    warnings: z.array(WarningSchema).describe('Warnings; they do not fail the group.'),
    partial: z
      .boolean()
      .describe('True when part of the group failed or a deadline cut it; completed checks are kept.'),
    error: GroupErrorSchema.nullable().describe('Set when the group failed or is partial; null otherwise.'),
  })
  .describe('The output of one domain search group, in request order.');
export type GroupOutput = z.output<typeof GroupOutputSchema>;

/** The full skill output (the REST response body without previews). */
export const SearchDomainsOutputSchema = z
  .object({ results: z.array(GroupOutputSchema).describe('One entry per request, in request order.') })
  .describe('Output of hosting.search_domains.');
export type SearchDomainsOutput = z.output<typeof SearchDomainsOutputSchema>;

export const WorkflowResultSchema = DomainResultSchema.extend({
  group_id: z.string().nullable().describe('The id of the request this result belongs to (null when none).'),
  group_index: z.number().int().nonnegative().describe('Index of that request in `requests`.'),
}).describe('A selected domain, tagged with its group.');

/** What later workflow steps may reference as `$nodes.<step>.output.*`. */
export const WorkflowOutputSchema = z
  .object({
    results: z.array(WorkflowResultSchema).describe('Selected domains across all groups, in group order.'),
    result_count: z.number().int().nonnegative().describe('Length of results.'),
    raw: SearchDomainsOutputSchema.describe(
      'Every group with checked candidates, quote tiers, warnings and errors.',
    ),
    error: GroupErrorSchema.nullable().describe('Set only when every group failed.'),
  })
  .describe('Workflow-visible output of hosting.search_domains.');
export type WorkflowOutput = z.output<typeof WorkflowOutputSchema>;

/** The mapped, suffix-enforced pool of one group and the warnings building it produced. */
export interface GroupPool {
  pool: DomainResult[];
  warnings: Warning[];
}

/** Maps complete candidates to results and builds the checked pool (≤ 40). */
export function buildGroupPool(
  group: PreparedGroup,
  candidates: readonly CheckedCandidate[],
  ctx: ResultContext,
): GroupPool {
  const exactDomain = group.target.kind === 'fqdn' ? group.target.domain : undefined;
  const mapped = candidates.map((c) => mapResult(c, ctx));
  const { pool, truncated } = buildCheckedPool(mapped, { suffixes: group.input.tlds, exactDomain });
  const warnings: Warning[] = [];
  if (truncated)
    warnings.push(warning('POOL_TRUNCATED', 'More candidates were checked than the pool of 40 holds.'));
  const mismatched = pool.filter((r) => r.pricing_status === 'currency_mismatch').length;
  if (mismatched > 0) {
    warnings.push(
      warning(
        'CURRENCY_MISMATCH',
        `${mismatched} name(s) were quoted in another currency than ${ctx.currency}; their prices are unknown.`,
      ),
    );
  }
  return { pool, warnings };
}

function groupHead(
  group: PreparedGroup,
): Pick<GroupOutput, 'id' | 'query' | 'searched_query' | 'country' | 'currency'> {
  const { input, searchedQuery } = group;
  return {
    id: input.id ?? null,
    query: input.query,
    ...(searchedQuery !== input.query ? { searched_query: searchedQuery } : {}),
    country: input.country,
    currency: input.currency,
  };
}

/**
 * Builds one group's output from its pool, the relevance outcome (undefined when no decision
 * was made) and an optional error. A group with an error but checked candidates is partial.
 */
export function buildGroupOutput(args: {
  group: PreparedGroup;
  pool: GroupPool;
  outcome: RelevanceOutcome | undefined;
  error?: GroupError | null;
}): GroupOutput {
  const { group, pool, outcome } = args;
  const error = args.error ?? null;
  const ranked = applyRelevance({
    pool: pool.pool,
    criteria: group.input.relevance_criteria,
    outcome,
    policy: group.input.availability,
    maxResults: group.input.max_results,
    exactDomain: group.target.kind === 'fqdn' ? group.target.domain : undefined,
  });
  return {
    ...groupHead(group),
    results: ranked.selected,
    checked_results: pool.pool,
    relevance_applied: ranked.relevance_applied,
    warnings: [...group.warnings, ...pool.warnings, ...ranked.warnings],
    partial: error !== null && pool.pool.length > 0,
    error,
  };
}

/** A group that failed before anything was checked; a requested relevance decision counts as failed. */
export function failedGroupOutput(group: PreparedGroup, error: GroupError): GroupOutput {
  const status = isRelevanceRequested(group.input.relevance_criteria) ? 'failed' : 'not_requested';
  return {
    ...groupHead(group),
    results: [],
    checked_results: [],
    relevance_applied: { status, evaluated: 0, removed: 0 },
    warnings: [...group.warnings],
    partial: false,
    error,
  };
}

/**
 * The code of a call in which every group failed: a group fails alone, and the call fails only
 * when every group failed. A group a rate limit held back (the shop's or our own provider limit)
 * answers after the wait, so any rate limit makes the call UPSTREAM_RATE_LIMITED, never a 503;
 * otherwise the code all groups share, else UPSTREAM_UNAVAILABLE.
 */
export function totalFailureCode(groups: readonly GroupOutput[]): ErrorCode {
  const codes = new Set(groups.map((g) => g.error?.code));
  const [only] = codes;
  if (codes.has('UPSTREAM_RATE_LIMITED')) return 'UPSTREAM_RATE_LIMITED';
  return codes.size === 1 && only !== undefined ? only : 'UPSTREAM_UNAVAILABLE';
}

function isTotalFailure(group: GroupOutput): boolean {
  return group.error !== null && !group.partial;
}

/**
 * The workflow view: selected results across groups (tagged with their group), their count and
 * the raw groups. A failed sibling does not set `error`; total failure gives no results and an
 * error ({@link totalFailureCode}).
 */
export function toWorkflowOutput(output: SearchDomainsOutput): WorkflowOutput {
  const results = output.results.flatMap((group, groupIndex) =>
    group.results.map((r) => ({ ...r, group_id: group.id, group_index: groupIndex })),
  );
  const failed = output.results.length > 0 && output.results.every(isTotalFailure);
  if (!failed) return { results, result_count: results.length, raw: output, error: null };
  const code = totalFailureCode(output.results);
  return {
    results: [],
    result_count: 0,
    raw: output,
    error: { code, message: `All ${output.results.length} domain search(es) failed.` },
  };
}
