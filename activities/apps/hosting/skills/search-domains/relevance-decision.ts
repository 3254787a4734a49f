/**
 * The one bounded relevance decision per group through the decision helper
 * client. Candidate names go as untrusted data; the skill's fixed instructions are the rubric.
 * Any failure, and a missing helper, become a {@link RelevanceOutcome} for the documented
 * fallback (provider order, availability selection, a warning): never an error.
 */
import { DecisionUnavailableError, type DecisionClient } from '../../../../decision/upstream/client.js';
import type { UpstreamMeter } from '../../../../registry/types.js';
import type { RelevanceDecisionInput, RelevanceOutcome } from './relevance.js';

/** Below this much time left in the group, no decision is attempted (it would fail anyway). */
export const MIN_DECISION_TIME_MS = 200;

/** Decides relevance for one group; never rejects. */
export type RelevanceDecider = (
  input: RelevanceDecisionInput | undefined,
  opts: { signal: AbortSignal; remainingMs: number; meter: UpstreamMeter },
) => Promise<RelevanceOutcome>;

/**
 * Creates the decider. `client` is undefined when no decision helper is configured
 * (no DECISION_URL): every non-blank criteria then gets the `not_configured` fallback. Each
 * request is charged to the `decision` provider limit for `model` first; a used-up limit is a
 * failed decision (the documented fallback), never a wait. `timeoutMs` (the policy's decision
 * timeout) bounds one decision; the group deadline may cut it shorter.
 */
export function createRelevanceDecider(
  client: DecisionClient | undefined,
  model: string,
  timeoutMs: number,
): RelevanceDecider {
  return async (input, { signal, remainingMs, meter }) => {
    if (client === undefined) return { kind: 'not_configured' };
    // Nothing survived the hard filters: there is nothing to score, and nothing to remove.
    if (input === undefined) return { kind: 'scores', scores: {} };
    const budget = Math.min(timeoutMs, remainingMs);
    if (budget < MIN_DECISION_TIME_MS || signal.aborted) return { kind: 'failed' };
    try {
      await meter.charge('decision', model);
      const scores = await client.scoreCandidates(
        {
          criteria: input.criteria,
          rubric: input.instructions,
          candidates: input.untrusted_candidates.map((c) => ({ id: c.key, text: c.name })),
        },
        { signal, timeoutMs: budget, onUsage: (u) => meter.addDecisionUsage(u) },
      );
      return { kind: 'scores', scores: Object.fromEntries(scores) };
    } catch (err) {
      if (err instanceof DecisionUnavailableError && err.reason === 'not_configured') {
        return { kind: 'not_configured' };
      }
      return { kind: 'failed' };
    }
  };
}
