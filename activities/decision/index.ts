/**
 * Entry module of the decision service: the platform wiring of the workflow `decide` step (the
 * service built from config and the secret store, the encyclopedia for source references, and
 * usage recording per owner on the usage records).
 */
import type { Config } from '../../lib/config.js';
import type { SecretStore } from '../../lib/secrets.js';
import type { Store } from '../../lib/store/db.js';
import { UsageRecords } from '../../lib/store/owners/usage-records.js';
import { POLICY_PROFILES } from '../policy.js';
import type { EncyclopediaSummaries } from '../apps/encyclopedia/index.js';
import type { DecideStepDeps } from './decide-step.js';
import { createDecisionService } from './service.js';

export { createDecideStep, type DecideStepDeps, type DecideStepActivity } from './decide-step.js';
export { createDecisionService, type DecisionService, type DecisionOutcome } from './service.js';

/**
 * The decide step's dependencies: no service without `DECISION_URL` (every step then takes its
 * fallback); each request's timeout is the `decision` profile's decision timeout; usage is
 * recorded on a `workflow.decide` usage record of the run's owner. `encyclopedia`, the
 * encyclopedia app's service when the catalogue serves it, resolves the question's references.
 */
export function decideStepDeps(
  config: Config,
  secrets: SecretStore,
  store: Store,
  encyclopedia?: EncyclopediaSummaries,
): DecideStepDeps {
  const usage = new UsageRecords(store);
  return {
    service: config.decision.DECISION_URL
      ? createDecisionService({
          config: config.decision,
          secrets,
          timeoutMs: POLICY_PROFILES.decision.deadlines.decisionTimeoutMs,
        })
      : undefined,
    safeguardModel: config.decision.DECISION_SAFEGUARD_MODEL,
    encyclopedia,
    recordUsage: async ({ ownerId, taskId, requestKey }, u) => {
      await usage.recordDecision({
        taskId,
        ownerId,
        requestKey,
        inputTokens: u.input_tokens,
        costUsd: u.cost_usd,
      });
    },
  };
}
