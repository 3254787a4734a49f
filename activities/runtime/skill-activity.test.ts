/**
 * The skill activity heartbeats on its policy's interval (activities/policy.ts) while the skill
 * runs, and not at all for a profile without a heartbeat timeout; a long-running (async) skill
 * waits for our own provider limit within its attempt's deadline, heartbeating meanwhile. Runs
 * in the SDK's MockActivityEnvironment (a real activity context).
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { resolvePolicy, type PolicyName } from '../policy.js';
import type { LoadedSkill, SkillImplementation } from '../registry/types.js';
import { ApplicationFailure } from '@temporalio/common';
import { parseProviderRules, ProviderLimits } from '../../lib/limits/provider-limits.js';
import { skillActivity } from './skill-activity.js';
import type { SkillManifest } from '../registry/manifest.js';

const Input = z.object({ requests: z.array(z.object({})) });

/** A skill that takes `ms` to answer, under the named profile. */
function slowSkill(policy: PolicyName, ms: number): LoadedSkill & { impl: SkillImplementation } {
  const impl: SkillImplementation = {
    input: Input,
    requestItem: z.object({}),
    defaults: {},
    output: z.object({ ok: z.boolean() }),
    workflowOutput: z.object({ ok: z.boolean() }),
    run: async () => {
      await sleep(ms);
      return { ok: true };
    },
    toWorkflowOutput: (o) => o,
    previews: () => [],
  };
  const manifest = {
    appId: 'probe',
    id: 'slow',
    policy,
    capabilities: { mode: 'sync' },
    restrictedOptions: [],
  } as unknown as SkillManifest;
  return { manifest, policy: resolvePolicy(policy), impl, loadError: undefined };
}

async function heartbeatsDuring(policy: PolicyName, ms: number): Promise<number> {
  const env = new MockActivityEnvironment();
  let beats = 0;
  env.on('heartbeat', () => beats++);
  const out = await env.run(skillActivity(slowSkill(policy, ms)), {
    input: { requests: [{}] },
    view: 'workflow' as const,
  });
  expect(out).toEqual({ ok: true });
  return beats;
}

describe('skill activity heartbeat', () => {
  it("beats every heartbeatIntervalMs of the skill's profile while it runs", async () => {
    // local: every 500 ms; a 1.3 s run beats twice (once if a loaded machine delays the timer).
    const beats = await heartbeatsDuring('local', 1_300);
    expect(beats).toBeGreaterThanOrEqual(1);
    expect(beats).toBeLessThanOrEqual(2);
  });

  it('never beats for a profile without a heartbeat timeout', async () => {
    expect(await heartbeatsDuring('upstream-lookup', 700)).toBe(0);
  });
});

/** An async skill that sends two requests to `probe`, under the `local` profile (beats every 500 ms). */
function twoRequestSkill(): LoadedSkill & { impl: SkillImplementation } {
  const skill = slowSkill('local', 0);
  skill.impl.run = async (_input, ctx) => {
    await ctx.meter.charge('probe');
    await ctx.meter.charge('probe');
    return { ok: true };
  };
  const manifest = {
    ...skill.manifest,
    capabilities: { mode: 'async' },
    providers: ['probe'],
  } as SkillManifest;
  return { ...skill, manifest };
}

describe('skill activity under a provider limit used up mid-call', () => {
  const run = (startToCloseTimeoutMs: number) => {
    const env = new MockActivityEnvironment({ startToCloseTimeoutMs, scheduleToCloseTimeoutMs: 0 });
    let beats = 0;
    env.on('heartbeat', () => beats++);
    const limits = { providerLimits: new ProviderLimits(parseProviderRules('probe=1/2')) };
    const started = Date.now();
    const out = env
      .run(skillActivity(twoRequestSkill(), limits), { input: { requests: [{}] }, view: 'workflow' as const })
      .then(
        (value) => ({ value, ms: Date.now() - started, beats }),
        (err: unknown) => ({ err, ms: Date.now() - started }),
      );
    return out;
  };

  it('waits for the reset within the deadline, heartbeating, then sends the second request', async () => {
    const res = await run(10_000);
    expect(res).toMatchObject({ value: { ok: true } });
    expect(res.ms).toBeGreaterThanOrEqual(1_500);
    expect((res as { beats: number }).beats).toBeGreaterThanOrEqual(2);
  });

  it('fails at once, for good, when the reset comes after the deadline', async () => {
    const res = await run(1_000);
    expect(res.ms).toBeLessThan(500);
    const err = (res as { err: unknown }).err;
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect(err).toMatchObject({
      type: 'UPSTREAM_RATE_LIMITED',
      nonRetryable: true,
      message: 'The probe provider limit for probe.slow is reached; retry in 2 s.',
      details: [{ provider: 'probe', skill: 'probe.slow', model: null, retry_after_seconds: 2 }],
    });
  });
});
