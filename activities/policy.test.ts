/**
 * The policy module: profile invariants, step timeouts, and docs/policies.md, whose table must
 * list exactly the numbers of every profile here (it is the one place they are documented).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  activityPolicy,
  NON_RETRYABLE_ERROR_TYPES,
  POLICY_PROFILES,
  PolicyNameSchema,
  resolvePolicy,
  retryBounds,
  type PolicyName,
  type PolicyProfile,
} from './policy.js';
import { LIMITS } from '../definitions/limits.js';

const names = Object.keys(POLICY_PROFILES) as PolicyName[];
const profile = (name: PolicyName): PolicyProfile => POLICY_PROFILES[name];

/** `55 s`, `5 min`, `1 h`, `500 ms`; a dash for none. */
function duration(ms: number | undefined): string {
  if (ms === undefined) return '-';
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1_000 === 0) return `${ms / 1_000} s`;
  return `${ms} ms`;
}

/** The table docs/policies.md must contain, rendered from the module. */
function policyTable(): string {
  const header = [
    'Profile',
    'Start-to-close',
    'Schedule-to-close (max step timeout)',
    'Heartbeat timeout',
    'Retry: first wait, factor, longest wait, attempts',
    'Group deadline',
    'Idle timeout',
    'Decision timeout',
    'Heartbeat interval',
  ];
  const rows = names.map((name) => {
    const p = profile(name);
    return [
      `\`${name}\``,
      duration(p.startToCloseMs),
      duration(p.scheduleToCloseMs),
      duration(p.heartbeatTimeoutMs),
      `${duration(p.retry.initialIntervalMs)}, ×${p.retry.backoffCoefficient}, ${duration(p.retry.maximumIntervalMs)}, ${p.retry.maximumAttempts}`,
      duration(p.deadlines.groupDeadlineMs),
      duration(p.deadlines.idleTimeoutMs),
      duration(p.deadlines.decisionTimeoutMs),
      duration(p.deadlines.heartbeatIntervalMs),
    ];
  });
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

describe('policy profiles', () => {
  it('are documented in docs/policies.md with exactly these numbers', () => {
    const doc = readFileSync(new URL('../docs/policies.md', import.meta.url), 'utf8');
    const table = /<!-- policy-table:start -->\n([\s\S]*?)\n<!-- policy-table:end -->/.exec(doc)?.[1];
    expect(table).toBe(policyTable());
    for (const name of names) expect(doc).toContain(`- \`${name}\`: ${profile(name).summary}`);
  });

  it('heartbeat where Temporal expects one: an interval well inside the heartbeat timeout', () => {
    for (const name of names) {
      const p = profile(name);
      if (p.heartbeatTimeoutMs === undefined) expect(p.deadlines.heartbeatIntervalMs, name).toBeUndefined();
      else expect(p.deadlines.heartbeatIntervalMs, name).toBeLessThanOrEqual(p.heartbeatTimeoutMs / 2);
    }
  });

  it('fit the in-activity deadlines inside one attempt', () => {
    for (const name of names) {
      const p = profile(name);
      expect(p.deadlines.groupDeadlineMs, name).toBeLessThan(p.startToCloseMs);
      expect(p.deadlines.idleTimeoutMs, name).toBeLessThanOrEqual(p.deadlines.groupDeadlineMs);
      expect(p.startToCloseMs, name).toBeLessThanOrEqual(p.scheduleToCloseMs);
    }
  });

  it('give long-running skills minutes per attempt, a heartbeat and few retries', () => {
    expect(resolvePolicy('long-running')).toEqual({
      name: 'long-running',
      activity: {
        startToCloseTimeout: 900_000,
        scheduleToCloseTimeout: 3_600_000,
        heartbeatTimeout: 60_000,
        retry: {
          initialInterval: 10_000,
          backoffCoefficient: 2,
          maximumInterval: 300_000,
          maximumAttempts: 3,
          nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
        },
      },
      maxStepTimeoutMs: 3_600_000,
      deadlines: {
        groupDeadlineMs: 600_000,
        idleTimeoutMs: 60_000,
        decisionTimeoutMs: 30_000,
        heartbeatIntervalMs: 15_000,
      },
    });
  });

  it('narrow the whole-step limit to a step timeout and never widen it', () => {
    expect(activityPolicy('upstream-search', 30_000)).toMatchObject({
      startToCloseTimeout: 30_000,
      scheduleToCloseTimeout: 30_000,
    });
    expect(activityPolicy('upstream-search', 60 * 60_000)).toMatchObject({
      startToCloseTimeout: 55_000,
      scheduleToCloseTimeout: 300_000,
    });
    expect(activityPolicy('upstream-lookup')).not.toHaveProperty('heartbeatTimeout');
  });

  it("narrow the retry rule to a step's retry, never widening it or the non-retryable codes", () => {
    expect(activityPolicy('upstream-search', undefined, { maximumAttempts: 1 }).retry).toEqual({
      initialInterval: 2_000,
      backoffCoefficient: 2,
      maximumInterval: 30_000,
      maximumAttempts: 1,
      nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
    });
    expect(
      activityPolicy('chat-delivery', 20_000, {
        maximumAttempts: 50,
        initialIntervalMs: 600_000,
        backoffCoefficient: 1.5,
      }),
    ).toMatchObject({
      scheduleToCloseTimeout: 20_000,
      retry: {
        initialInterval: 60_000,
        backoffCoefficient: 1.5,
        maximumInterval: 60_000,
        maximumAttempts: 10,
      },
    });
  });

  it("give the compiler the chat and decide steps' retry bounds from their profiles", () => {
    expect(LIMITS.chatMaxRetry).toEqual(retryBounds('chat-delivery'));
    expect(LIMITS.decideMaxRetry).toEqual(retryBounds('decision'));
    expect(retryBounds('upstream-search')).toEqual({ maximumAttempts: 3, maximumIntervalMs: 30_000 });
  });

  it('names are a closed set: an unknown name fails with the rule, never the value', () => {
    const res = PolicyNameSchema.safeParse('turbo');
    expect(res.success).toBe(false);
    expect(res.error?.issues.map((i) => i.message)).toEqual([
      'must name a profile in activities/policy.ts (upstream-search, upstream-lookup, long-running, chat-delivery, event-index, decision, local)',
    ]);
  });
});
