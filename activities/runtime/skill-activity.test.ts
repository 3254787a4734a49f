/**
 * The skill activity heartbeats on its policy's interval (activities/policy.ts) while the skill
 * runs, and not at all for a profile without a heartbeat timeout. Runs in the SDK's
 * MockActivityEnvironment (a real activity context).
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { resolvePolicy, type PolicyName } from '../policy.js';
import type { LoadedSkill, SkillImplementation } from '../registry/types.js';
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
  const manifest = { appId: 'probe', id: 'slow', policy, capabilities: { mode: 'sync' } } as SkillManifest;
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
