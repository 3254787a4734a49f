/**
 * Relevance ranking on the decision service , shared by
 * every search skill that has it. It runs only for non-blank criteria, on candidates the skill
 * has already hard-filtered and deduplicated; at most the skill's cap is scored, one 0-4 score
 * per candidate under the skill's own rubric (explicit result evidence only). Scores below 1
 * are removed and the rest stably reordered (ties keep provider order); candidates past the cap
 * follow unscored. Any failure keeps provider order and reports `failed` (the skill adds its
 * warning); the skill then slices back to its requested count.
 *
 * Caps: domain search and icons 40, power designs 20 ({@link RELEVANCE_CAPS}); each skill's
 * rubric is documented in docs/decision.md.
 */
import { z } from 'zod';
import { DecisionUnavailableError, type DecisionClient } from './upstream/client.js';
import type { UpstreamMeter } from '../registry/types.js';

/** Candidates scored per decision, per skill. */
export const RELEVANCE_CAPS = { domains: 40, icons: 40, power_designs: 20 } as const;
/** Scores run 0-4; a candidate scoring below this is removed. */
export const MIN_RELEVANCE_SCORE = 1;

export const RELEVANCE_STATUSES = ['applied', 'failed', 'not_configured', 'not_requested'] as const;
export type RelevanceStatus = (typeof RELEVANCE_STATUSES)[number];

/** A search group's `relevance_applied` field, shared by every skill that ranks. */
export const RelevanceAppliedSchema = z
  .object({
    status: z
      .enum(RELEVANCE_STATUSES)
      .describe(
        'applied; failed (fallback used); not_configured (no helper); not_requested (blank criteria).',
      ),
    evaluated: z.number().int().nonnegative().describe('Candidates the decision scored.'),
    removed: z.number().int().nonnegative().describe('Candidates removed for a score below 1.'),
  })
  .describe('Whether the relevance decision was applied to this group.');
export type RelevanceApplied = z.output<typeof RelevanceAppliedSchema>;

/** What happened to the ranking: applied, failed (fallback), not configured, not requested. */
export interface RankingReport {
  status: 'applied' | 'failed' | 'not_configured' | 'not_requested';
  evaluated: number;
  removed: number;
}

export interface RankArgs<T> {
  /** Undefined when no decision helper is configured. */
  client: DecisionClient | undefined;
  criteria: string | undefined;
  /** Hard-filtered, deduplicated candidates in provider order. */
  candidates: readonly T[];
  cap: number;
  /** The skill's fixed rubric (trusted). */
  rubric: string;
  /** The candidate's public result text the rubric scores (sent as untrusted data). */
  text: (candidate: T) => string;
  signal: AbortSignal;
  timeoutMs?: number;
  /** Charged once before the request (the `decision` provider limit for `model`). */
  meter: UpstreamMeter;
  model: string;
}

/** Ranks `candidates`; never rejects. */
export async function rankByRelevance<T>(
  args: RankArgs<T>,
): Promise<{ ordered: T[]; report: RankingReport }> {
  const { candidates, cap } = args;
  const keep = (status: RankingReport['status']) => ({
    ordered: [...candidates],
    report: { status, evaluated: 0, removed: 0 },
  });
  if (args.criteria === undefined || args.criteria.trim() === '') return keep('not_requested');
  if (!args.client) return keep('not_configured');
  const pool = candidates.slice(0, cap);
  if (pool.length === 0) return { ordered: [], report: { status: 'applied', evaluated: 0, removed: 0 } };
  try {
    await args.meter.charge('decision', args.model);
    const scores = await args.client.scoreCandidates(
      {
        criteria: args.criteria.trim(),
        rubric: args.rubric,
        candidates: pool.map((c, i) => ({ id: `c${i}`, text: args.text(c) })),
      },
      {
        signal: args.signal,
        onUsage: (u) => args.meter.addDecisionUsage(u),
        ...(args.timeoutMs !== undefined && { timeoutMs: args.timeoutMs }),
      },
    );
    const scored = pool.map((item, i) => ({ item, i, score: scores.get(`c${i}`) }));
    if (scored.some((s) => typeof s.score !== 'number')) return keep('failed');
    const kept = scored
      .filter((s) => (s.score as number) >= MIN_RELEVANCE_SCORE)
      .sort((a, b) => (b.score as number) - (a.score as number) || a.i - b.i)
      .map((s) => s.item);
    return {
      ordered: [...kept, ...candidates.slice(cap)],
      report: { status: 'applied', evaluated: pool.length, removed: pool.length - kept.length },
    };
  } catch (err) {
    if (err instanceof DecisionUnavailableError && err.reason === 'not_configured')
      return keep('not_configured');
    return keep('failed');
  }
}
