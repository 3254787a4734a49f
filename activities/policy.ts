/**
 * The one policy module: every number of a skill's execution policy, as named profiles. A
 * profile holds the Temporal activity options (timeouts, retry, heartbeat timeout) and the
 * in-activity deadlines they imply (group deadline, upstream idle timeout, decision timeout,
 * heartbeat interval). An app definition file names a profile; the registry resolves it once,
 * at load, into a {@link ResolvedPolicy} that every caller reads. Temporal owns retries across
 * attempts; inside an activity only the spec's one lazy proxy attempt and the deadline signal
 * exist.
 *
 * The resolved options are plain JSON, so they can be snapshotted into a workflow plan or a
 * skill-call workflow's input: a run never sees a policy that changed after it started.
 * docs/policies.md lists every profile's numbers; test/policy-docs.test.ts keeps it equal to
 * this module.
 */
import { z } from 'zod';
import { ERROR_CATALOGUE } from '../lib/errors/catalogue.js';

/** Deadlines a skill keeps inside one activity attempt (or one in-process call). */
export interface SkillDeadlines {
  /** One request item (group) may take this long, fallback included; then its signal aborts. */
  groupDeadlineMs: number;
  /** An upstream response (headers, and every gap between body bytes) may stall this long. */
  idleTimeoutMs: number;
  /** Upper bound of one model decision; the group deadline may cut it shorter. */
  decisionTimeoutMs: number;
  /**
   * How often a running activity heartbeats; undefined when the profile has no heartbeat
   * timeout (Temporal then never expects one).
   */
  heartbeatIntervalMs: number | undefined;
}

export interface PolicyProfile {
  /** One line: what the profile is for. */
  summary: string;
  /** Limit of one attempt. */
  startToCloseMs: number;
  /**
   * Limit across all attempts, including backoff; also the longest per-step `timeout` a
   * definition may ask for (a step timeout only narrows it).
   */
  scheduleToCloseMs: number;
  /** Temporal fails an attempt that has not heartbeat for this long (a lost worker). */
  heartbeatTimeoutMs?: number;
  retry: {
    initialIntervalMs: number;
    backoffCoefficient: number;
    maximumIntervalMs: number;
    maximumAttempts: number;
  };
  deadlines: SkillDeadlines;
}

/** Error codes Temporal must never retry: every catalogue code marked non-retryable. */
export const NON_RETRYABLE_ERROR_TYPES: string[] = Object.entries(ERROR_CATALOGUE)
  .filter(([, spec]) => !spec.retryable)
  .map(([code]) => code);

export const POLICY_PROFILES = {
  /**
   * Domain search and similar multi-operation upstream searches (40 s per group,
   * fallback included; 15 s upstream idle timeout). Groups run concurrently, so one attempt needs
   * the group deadline plus mapping slack. The skill's own outcomes are final
   * (activities/runtime/skill-activity.ts); the retries are for a lost worker (heartbeat timeout) and a
   * provider limit that queued the call before it sent.
   */
  'upstream-search': {
    summary: 'Multi-operation upstream searches.',
    startToCloseMs: 55_000,
    scheduleToCloseMs: 5 * 60_000,
    heartbeatTimeoutMs: 20_000,
    retry: { initialIntervalMs: 2_000, backoffCoefficient: 2, maximumIntervalMs: 30_000, maximumAttempts: 3 },
    deadlines: {
      groupDeadlineMs: 40_000,
      idleTimeoutMs: 15_000,
      decisionTimeoutMs: 10_000,
      heartbeatIntervalMs: 5_000,
    },
  },
  /** Single upstream lookups (one request per item, no stream). */
  'upstream-lookup': {
    summary: 'Single upstream lookups, one request per item.',
    startToCloseMs: 20_000,
    scheduleToCloseMs: 2 * 60_000,
    retry: { initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 20_000, maximumAttempts: 4 },
    deadlines: {
      groupDeadlineMs: 15_000,
      idleTimeoutMs: 10_000,
      decisionTimeoutMs: 10_000,
      heartbeatIntervalMs: undefined,
    },
  },
  /**
   * Skills that run for minutes (e.g. a power-design search): one attempt may take 15 minutes
   * and must heartbeat every 15 s (a lost worker is noticed within a minute). Few, slow retries:
   * a retry repeats minutes of upstream work.
   */
  'long-running': {
    summary: 'Skills that run for minutes, heartbeating.',
    startToCloseMs: 15 * 60_000,
    scheduleToCloseMs: 60 * 60_000,
    heartbeatTimeoutMs: 60_000,
    retry: {
      initialIntervalMs: 10_000,
      backoffCoefficient: 2,
      maximumIntervalMs: 5 * 60_000,
      maximumAttempts: 3,
    },
    deadlines: {
      groupDeadlineMs: 10 * 60_000,
      idleTimeoutMs: 60_000,
      decisionTimeoutMs: 30_000,
      heartbeatIntervalMs: 15_000,
    },
  },
  /** Chat message delivery: the store write plus an optional webhook; retried patiently. */
  'chat-delivery': {
    summary: 'Chat message delivery: the store write plus an optional webhook.',
    startToCloseMs: 15_000,
    scheduleToCloseMs: 10 * 60_000,
    retry: {
      initialIntervalMs: 1_000,
      backoffCoefficient: 2,
      maximumIntervalMs: 60_000,
      maximumAttempts: 10,
    },
    deadlines: {
      groupDeadlineMs: 10_000,
      idleTimeoutMs: 10_000,
      decisionTimeoutMs: 10_000,
      heartbeatIntervalMs: undefined,
    },
  },
  /** The event index: a waiting step's row written or removed in the store; quick, retried patiently. */
  'event-index': {
    summary: 'The event index: a waiting step recorded in or removed from the store.',
    startToCloseMs: 10_000,
    scheduleToCloseMs: 5 * 60_000,
    retry: {
      initialIntervalMs: 1_000,
      backoffCoefficient: 2,
      maximumIntervalMs: 30_000,
      maximumAttempts: 10,
    },
    deadlines: {
      groupDeadlineMs: 8_000,
      idleTimeoutMs: 8_000,
      decisionTimeoutMs: 8_000,
      heartbeatIntervalMs: undefined,
    },
  },
  /**
   * The workflow `decide` step: one bounded decision, plus the prompt-injection
   * screening of its external context. Decision failures are fallbacks, never activity failures,
   * so the retries only cover a lost worker.
   */
  decision: {
    summary: 'The workflow decide step: one bounded decision with screening.',
    startToCloseMs: 30_000,
    scheduleToCloseMs: 60_000,
    retry: { initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 10_000, maximumAttempts: 2 },
    deadlines: {
      groupDeadlineMs: 25_000,
      idleTimeoutMs: 10_000,
      decisionTimeoutMs: 10_000,
      heartbeatIntervalMs: undefined,
    },
  },
  /** In-process skills with no upstream (tests, pure helpers). */
  local: {
    summary: 'In-process skills with no upstream (tests, pure helpers).',
    startToCloseMs: 10_000,
    heartbeatTimeoutMs: 2_000,
    scheduleToCloseMs: 60_000,
    retry: { initialIntervalMs: 500, backoffCoefficient: 2, maximumIntervalMs: 5_000, maximumAttempts: 3 },
    deadlines: {
      groupDeadlineMs: 5_000,
      idleTimeoutMs: 5_000,
      decisionTimeoutMs: 5_000,
      heartbeatIntervalMs: 500,
    },
  },
} as const satisfies Record<string, PolicyProfile>;

export type PolicyName = keyof typeof POLICY_PROFILES;

/** A profile name, as an app definition file's `policy` field is validated. */
export const PolicyNameSchema = z.enum(Object.keys(POLICY_PROFILES) as [PolicyName, ...PolicyName[]], {
  error: () => `must name a profile in activities/policy.ts (${Object.keys(POLICY_PROFILES).join(', ')})`,
});

/** JSON-serialisable activity options (the subset of Temporal's ActivityOptions we set). */
export interface ActivityPolicy {
  startToCloseTimeout: number;
  scheduleToCloseTimeout: number;
  heartbeatTimeout?: number;
  retry: {
    initialInterval: number;
    backoffCoefficient: number;
    maximumInterval: number;
    maximumAttempts: number;
    nonRetryableErrorTypes: string[];
  };
}

/**
 * Activity options for a profile. A step `timeout` narrows the whole-step limit
 * (schedule-to-close) and never widens it.
 */
export function activityPolicy(
  name: PolicyName,
  stepTimeoutMs?: number,
  retry: StepRetry = {},
): ActivityPolicy {
  const p: PolicyProfile = POLICY_PROFILES[name];
  const total = Math.min(stepTimeoutMs ?? p.scheduleToCloseMs, p.scheduleToCloseMs);
  // A step's retry only narrows the profile's: never more attempts or a longer interval, and
  // the non-retryable codes stay non-retryable.
  const cap = (value: number | undefined, max: number) => Math.min(value ?? max, max);
  return {
    startToCloseTimeout: Math.min(p.startToCloseMs, total),
    scheduleToCloseTimeout: total,
    ...(p.heartbeatTimeoutMs ? { heartbeatTimeout: p.heartbeatTimeoutMs } : {}),
    retry: {
      initialInterval: cap(retry.initialIntervalMs ?? p.retry.initialIntervalMs, p.retry.maximumIntervalMs),
      backoffCoefficient: retry.backoffCoefficient ?? p.retry.backoffCoefficient,
      maximumInterval: p.retry.maximumIntervalMs,
      maximumAttempts: cap(retry.maximumAttempts, p.retry.maximumAttempts),
      nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
    },
  };
}

/** A step's own `retry:` (compiled into the plan), narrowing its profile's. */
export interface StepRetry {
  maximumAttempts?: number;
  initialIntervalMs?: number;
  backoffCoefficient?: number;
}

/** The widest `retry:` a step under profile `name` may ask for (its attempts and longest interval). */
export function retryBounds(name: PolicyName): { maximumAttempts: number; maximumIntervalMs: number } {
  const { retry } = POLICY_PROFILES[name];
  return { maximumAttempts: retry.maximumAttempts, maximumIntervalMs: retry.maximumIntervalMs };
}

/** A skill's policy, resolved once at registry load: everything a caller needs, no lookups. */
export interface ResolvedPolicy {
  name: PolicyName;
  /** Activity options without a step timeout (skill calls; the API's in-process deadline). */
  activity: ActivityPolicy;
  /** Longest step `timeout` a definition may ask for. */
  maxStepTimeoutMs: number;
  deadlines: SkillDeadlines;
}

/** Resolves a profile (the registry does this once per skill). */
export function resolvePolicy(name: PolicyName): ResolvedPolicy {
  const p: PolicyProfile = POLICY_PROFILES[name];
  return {
    name,
    activity: activityPolicy(name),
    maxStepTimeoutMs: p.scheduleToCloseMs,
    deadlines: { ...p.deadlines },
  };
}
