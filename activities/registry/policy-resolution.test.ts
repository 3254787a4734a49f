/**
 * The registry resolves each skill's policy once, at load: the real hosting app gets the
 * upstream-search numbers, an implementation receives its profile's deadlines, and an unknown
 * profile name is reported at load with the failing path (the app is not loaded).
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/logger.js';
import { staticSecrets } from '../../lib/secrets.js';
import { NON_RETRYABLE_ERROR_TYPES, resolvePolicy } from '../policy.js';
import { APPS } from '../apps/index.js';
import { probeApp } from '../../test/fixtures/policy-apps/probe/app.js';
import { unknownPolicyApp } from '../../test/fixtures/policy-apps/unknown/app.js';
import { runSkill } from '../runtime/run-skill.js';
import { createUpstreamMeter } from '../runtime/upstream-meter.js';
import { loadRegistry } from './registry.js';

const platform = () => ({
  config: loadConfig({ LOG_LEVEL: 'silent' }),
  logger: createLogger('silent'),
  secrets: staticSecrets({}),
});
const FIXTURES = [probeApp, unknownPolicyApp];

describe('policy resolution at registry load', () => {
  it('gives hosting.search_domains the upstream-search numbers', async () => {
    const registry = await loadRegistry(platform(), APPS);
    expect(registry.get('hosting', 'search_domains')?.policy).toEqual({
      name: 'upstream-search',
      activity: {
        startToCloseTimeout: 55_000,
        scheduleToCloseTimeout: 300_000,
        heartbeatTimeout: 20_000,
        retry: {
          initialInterval: 2_000,
          backoffCoefficient: 2,
          maximumInterval: 30_000,
          maximumAttempts: 3,
          nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
        },
      },
      maxStepTimeoutMs: 300_000,
      deadlines: {
        groupDeadlineMs: 40_000,
        idleTimeoutMs: 15_000,
        decisionTimeoutMs: 10_000,
        heartbeatIntervalMs: 5_000,
      },
    });
    for (const skill of registry.all()) {
      expect(skill.policy, skill.manifest.id).toEqual(resolvePolicy(skill.manifest.policy));
    }
  });

  it("hands an implementation its profile's deadlines", async () => {
    const registry = await loadRegistry(platform(), FIXTURES);
    const skill = registry.available('probe', 'deadlines');
    expect(skill?.policy.name).toBe('long-running');
    const meter = createUpstreamMeter({ skill: 'probe.deadlines' });
    const run = runSkill(skill!, { requests: [{}] }, { view: 'workflow', anonymous: false, meter });
    await expect(run).resolves.toEqual({
      groupDeadlineMs: 600_000,
      idleTimeoutMs: 60_000,
      decisionTimeoutMs: 30_000,
      heartbeatIntervalMs: 15_000,
    });
  });

  it('reports an unknown profile name at load with its path, and loads the other apps', async () => {
    const registry = await loadRegistry(platform(), FIXTURES);
    expect(registry.problems).toEqual([
      {
        app: 'unknown_policy',
        message:
          'skills[0].policy: must name a profile in activities/policy.ts (upstream-search, upstream-lookup, long-running, chat-delivery, event-index, decision, local)',
      },
    ]);
    expect(registry.apps.map((a) => a.id)).toEqual(['probe']);
    expect(registry.get('unknown_policy', 'fast')).toBeUndefined();
  });
});
