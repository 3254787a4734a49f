import { describe, expect, it } from 'vitest';
import { callLeaseMs } from './skills.js';

type LeaseSkill = Parameters<typeof callLeaseMs>[0];
const skill = (mode: 'sync' | 'async', deadlineMs: number) =>
  ({
    manifest: { capabilities: { mode } },
    policy: { activity: { startToCloseTimeout: deadlineMs } },
  }) as unknown as LeaseSkill;

describe("a skill call's Idempotency-Key lease", () => {
  it('holds 30 s for a long-running skill, whose request only starts its task', () => {
    expect(callLeaseMs(skill('async', 600_000))).toBe(30_000);
  });

  it("holds a quick skill's deadline plus 30 s, so a retry cannot take over a call still running", () => {
    expect(callLeaseMs(skill('sync', 20_000))).toBe(50_000);
  });
});
