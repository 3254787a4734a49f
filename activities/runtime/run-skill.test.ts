/**
 * The one runner: input validation (skipped for validated input), the views, the in-process
 * deadline as DEADLINE_EXCEEDED, a caller's cancellation kept as the skill's own error, and
 * heartbeats on the policy's interval only when the caller has a sink.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import { resolvePolicy, type PolicyName } from '../policy.js';
import type { SkillContext, SkillImplementation } from '../registry/types.js';
import { policyDeadlineMs, runSkill, type SkillToRun } from './run-skill.js';
import { createUpstreamMeter } from './upstream-meter.js';

const Input = z.object({ requests: z.array(z.object({ n: z.number().int() })).min(1) });
type In = z.infer<typeof Input>;
type Out = { total: number };

/** Sums `n`; waits `ms` first (an abort throws the signal's reason), beating its stage. */
function summer(policy: PolicyName, ms = 0, seen: SkillContext[] = []): SkillToRun<In, Out, number> {
  const impl: SkillImplementation<In, Out, number> = {
    input: Input,
    requestItem: z.object({ n: z.number() }),
    defaults: {},
    output: z.object({ total: z.number() }),
    workflowOutput: z.number(),
    run: async (input, ctx) => {
      seen.push(ctx);
      ctx.heartbeat({ stage: 'summing' });
      if (ms > 0) {
        await sleep(ms, undefined, { signal: ctx.signal }).catch(() => {
          throw ctx.signal.reason;
        });
      }
      return { total: input.requests.reduce((a, r) => a + r.n, 0) };
    },
    toWorkflowOutput: (o) => o.total,
    previews: (o) => [`total ${o.total}`],
  };
  return { policy: resolvePolicy(policy), impl };
}

const base = () => ({ anonymous: false, meter: createUpstreamMeter({ skill: 'probe.sum' }) });
const INPUT = { requests: [{ n: 2 }, { n: 5 }] };

describe('runSkill', () => {
  it('answers the full view (output and previews) and the workflow view', async () => {
    const skill = summer('local');
    await expect(runSkill(skill, INPUT, { ...base(), view: 'full' })).resolves.toEqual({
      output: { total: 7 },
      previews: ['total 7'],
    });
    await expect(runSkill(skill, INPUT, { ...base(), view: 'workflow' })).resolves.toBe(7);
  });

  it('validates the input with the skill schema: INVALID_PARAMETER with the path, the skill never runs', async () => {
    const seen: SkillContext[] = [];
    const err = await runSkill(
      summer('local', 0, seen),
      { requests: [{ n: 'x' }] },
      { ...base(), view: 'full' },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SkillflowError);
    const e = err as SkillflowError;
    expect([e.code, e.message, e.details]).toEqual([
      'INVALID_PARAMETER',
      'Invalid value at requests[0].n: Invalid input: expected number, received string',
      { issues: [{ path: 'requests[0].n', message: 'Invalid input: expected number, received string' }] },
    ]);
    expect(seen).toEqual([]);
  });

  it('does not parse again input marked validated', async () => {
    // Parsing would reject the empty list (min 1); the validated input reaches the skill as is.
    const out = await runSkill(
      summer('local'),
      { requests: [] },
      { ...base(), view: 'full', validated: true },
    );
    expect(out).toEqual({ output: { total: 0 }, previews: ['total 0'] });
  });

  it('a run the deadline cut is DEADLINE_EXCEEDED with the catalogue message', async () => {
    const started = performance.now();
    const err = await runSkill(summer('local', 5_000), INPUT, {
      ...base(),
      view: 'full',
      deadlineMs: 100,
    }).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(err).toBeInstanceOf(SkillflowError);
    expect([(err as SkillflowError).code, (err as SkillflowError).message]).toEqual([
      'DEADLINE_EXCEEDED',
      new SkillflowError('DEADLINE_EXCEEDED').message,
    ]);
  });

  it("a caller's cancellation rethrows the skill's own error, even with a deadline", async () => {
    const cancel = new AbortController();
    const reason = new Error('cancelled by the caller');
    setTimeout(() => cancel.abort(reason), 50);
    const err = await runSkill(summer('local', 5_000), INPUT, {
      ...base(),
      view: 'workflow',
      signal: cancel.signal,
      deadlineMs: 60_000,
    }).catch((e: unknown) => e);
    expect(err).toBe(reason);
  });

  it("the in-process deadline is the policy's one-attempt limit", () => {
    expect(policyDeadlineMs(summer('local'))).toBe(resolvePolicy('local').activity.startToCloseTimeout);
    expect(policyDeadlineMs(summer('upstream-search'))).toBe(55_000);
  });

  it("beats on the policy's interval with the skill's last details, only when given a sink", async () => {
    const beats: unknown[] = [];
    // local beats every 500 ms: the skill's own beat plus one or two interval beats in 1.3 s.
    await runSkill(summer('local', 1_300), INPUT, {
      ...base(),
      view: 'full',
      heartbeat: (d) => beats.push(d),
    });
    expect(beats.length).toBeGreaterThanOrEqual(2);
    expect(beats.length).toBeLessThanOrEqual(3);
    expect(new Set(beats.map((b) => JSON.stringify(b)))).toEqual(new Set(['{"stage":"summing"}']));

    const seen: SkillContext[] = [];
    await runSkill(summer('local', 0, seen), INPUT, { ...base(), view: 'full' });
    expect(seen[0]!.heartbeat({ stage: 'x' })).toBeUndefined();
    expect(seen[0]!.anonymous).toBe(false);
    expect(seen[0]!.signal.aborted).toBe(false);
  });
});
