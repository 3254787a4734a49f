/**
 * Factories for the errors the platform raises in more than one place, with named options
 * instead of positional constructor arguments. Every 429 is built here: its Retry-After is
 * `retryAfterMs` rounded up to whole seconds (at least 1), computed once in
 * {@link retryAfterSeconds}; the message ends `retry in N s.`, `details.retry_after_seconds`
 * is N (the last detail), and the error carries N × 1000 ms unless the wait is kept exact.
 * A code used once with a bespoke message may still use `new SkillflowError` directly.
 */
import { formatBytes } from '../text/byte-size.js';
import type { ErrorCode } from './catalogue.js';
import { invalidParameter, SkillflowError, type ErrorDetails, type FieldIssue } from './skillflow-error.js';

/** The Retry-After of a 429 in whole seconds: `ms` rounded up, at least 1. */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** What every 429 factory takes. */
export interface LimitedOptions {
  /** The rule that refused, as a sentence without its end (`The free tier allows 60 requests per minute`). */
  rule: string;
  /** Details before `retry_after_seconds`, in wire order. */
  details?: ErrorDetails;
  /** Milliseconds until a retry makes sense. */
  retryAfterMs: number;
  /** Carry `retryAfterMs` as given instead of rounded to whole seconds (an upstream's exact wait). */
  exactMs?: boolean;
}

function limited(code: ErrorCode, opts: LimitedOptions, tail = '.'): SkillflowError {
  const seconds = retryAfterSeconds(opts.retryAfterMs);
  return new SkillflowError(
    code,
    `${opts.rule}; retry in ${seconds} s${tail}`,
    { ...opts.details, retry_after_seconds: seconds },
    opts.exactMs ? opts.retryAfterMs : seconds * 1000,
  );
}

/** An upstream 429 (or a provider limit of ours): `provider` is always the first detail. */
export interface UpstreamLimitedOptions extends LimitedOptions {
  provider: string;
}

const upstreamLimited = (code: ErrorCode, opts: UpstreamLimitedOptions) =>
  limited(code, { ...opts, details: { provider: opts.provider, ...opts.details } });

/** The caps of OWNER_MAX_*, by the name `details.limit` carries. */
export type OwnerLimitName = 'definitions' | 'schedules' | 'running_runs' | 'queued_tasks' | 'chat_keys';

const OWNER_LIMIT_WHAT: Record<OwnerLimitName, string> = {
  definitions: 'workflow definitions',
  schedules: 'scheduled workflow definitions',
  running_runs: 'running workflow runs',
  queued_tasks: 'open skill-call tasks',
  chat_keys: 'registered chat keys; delete one first',
};

export const errors = {
  /** 429 RATE_LIMITED: a request limit of ours (tier, per address, per key, queue depth). */
  rateLimited: (opts: LimitedOptions): SkillflowError => limited('RATE_LIMITED', opts),

  /** 429 UPSTREAM_RATE_LIMITED: a provider limit of ours, an owner's share of one, or the upstream's own 429. */
  upstreamRateLimited: (opts: UpstreamLimitedOptions): SkillflowError =>
    upstreamLimited('UPSTREAM_RATE_LIMITED', opts),

  /** 429 UPSTREAM_RATE_LIMITED after the upstream's own 429: `<upstream> asked us to slow down`. */
  upstreamSlowDown: (opts: {
    /** The upstream as the message names it (`The icon upstream`). */
    upstream: string;
    provider: string;
    retryAfterMs: number;
    exactMs?: boolean;
  }): SkillflowError =>
    upstreamLimited('UPSTREAM_RATE_LIMITED', {
      rule: `${opts.upstream} asked us to slow down`,
      provider: opts.provider,
      retryAfterMs: opts.retryAfterMs,
      ...(opts.exactMs ? { exactMs: true } : {}),
    }),

  /** 429 BUDGET_EXHAUSTED: our outbound budget toward an upstream is used up. */
  budgetExhausted: (opts: UpstreamLimitedOptions): SkillflowError =>
    upstreamLimited('BUDGET_EXHAUSTED', opts),

  /**
   * 429 ANONYMOUS_LIMIT_EXHAUSTED: a guest allowance is used up (`reason` such as
   * `daily_limit_reached`). Carries the exact wait to the window's end.
   */
  anonymousLimitExhausted: (opts: { reason: string; retryAfterMs: number }): SkillflowError =>
    limited(
      'ANONYMOUS_LIMIT_EXHAUSTED',
      {
        rule: `The free allowance is used up (${opts.reason.replaceAll('_', ' ')})`,
        details: { reason: opts.reason },
        retryAfterMs: opts.retryAfterMs,
        exactMs: true,
      },
      ' or use an API token.',
    ),

  /** 429 OWNER_LIMIT_REACHED: one of the owner's caps (OWNER_MAX_*); no Retry-After of its own. */
  ownerLimitReached: (opts: { limit: OwnerLimitName; max: number }): SkillflowError =>
    new SkillflowError(
      'OWNER_LIMIT_REACHED',
      `This account may have at most ${opts.max} ${OWNER_LIMIT_WHAT[opts.limit]}.`,
      { limit: opts.limit, max: opts.max },
    ),

  /** 400 INVALID_PARAMETER listing every failing field. */
  invalidParameter,

  /**
   * 400 INVALID_PARAMETER of a request part (`body`, `querystring`, `params`): the message names
   * the first failing path, each issue carries the part as `location`.
   */
  invalidRequest: (location: string, issues: readonly FieldIssue[]): SkillflowError => {
    const first = issues[0];
    return invalidParameter(
      issues.map((issue) => ({ ...issue, location })),
      `Invalid ${location} at ${first?.path || '(root)'}: ${first?.message ?? 'invalid'}`,
    );
  },

  /** 400 INVALID_BODY: the body does not parse (`details.diagnostics` when the parser names where). */
  invalidBody: (details?: ErrorDetails): SkillflowError =>
    new SkillflowError('INVALID_BODY', undefined, details),

  /** 413 PAYLOAD_TOO_LARGE: the message states the route's limit, `details.limit_bytes` carries it. */
  payloadTooLarge: (limitBytes: number): SkillflowError =>
    new SkillflowError(
      'PAYLOAD_TOO_LARGE',
      `The request body is larger than the limit of ${formatBytes(limitBytes)} (${limitBytes} bytes).`,
      { limit_bytes: limitBytes },
    ),

  /** 404 NOT_FOUND: `message` names what is missing (`No task with this id.`), never the id. */
  notFound: (message?: string, details?: ErrorDetails): SkillflowError =>
    new SkillflowError('NOT_FOUND', message, details),

  /** 404 SKILL_NOT_FOUND. */
  skillNotFound: (message = 'No available skill with that id.'): SkillflowError =>
    new SkillflowError('SKILL_NOT_FOUND', message),

  /** 403 FORBIDDEN: `message` names the rule. */
  forbidden: (message: string, details?: ErrorDetails): SkillflowError =>
    new SkillflowError('FORBIDDEN', message, details),

  /** 409 CONFLICT. */
  conflict: (message: string): SkillflowError => new SkillflowError('CONFLICT', message),

  /** 401 UNAUTHENTICATED. */
  unauthenticated: (message?: string): SkillflowError => new SkillflowError('UNAUTHENTICATED', message),

  /** UPSTREAM_UNAVAILABLE: `provider` is the first detail. */
  upstreamUnavailable: (opts: {
    provider: string;
    message: string;
    details?: ErrorDetails;
  }): SkillflowError =>
    new SkillflowError('UPSTREAM_UNAVAILABLE', opts.message, { provider: opts.provider, ...opts.details }),

  /** UPSTREAM_MALFORMED: `upstream` names it in the message (`The <upstream> sent ...`); never the body. */
  upstreamMalformed: (opts: { upstream: string; provider: string }): SkillflowError =>
    new SkillflowError('UPSTREAM_MALFORMED', `The ${opts.upstream} sent an answer that does not parse.`, {
      provider: opts.provider,
    }),

  /** UNSAFE_CONTENT: upstream content that could not be made safe to serve; `provider` first. */
  unsafeContent: (opts: { provider: string; message: string; details?: ErrorDetails }): SkillflowError =>
    new SkillflowError('UNSAFE_CONTENT', opts.message, { provider: opts.provider, ...opts.details }),

  /** SERVICE_UNAVAILABLE: a part of the platform is not configured (`message` names its variable). */
  serviceUnavailable: (message: string, details?: ErrorDetails): SkillflowError =>
    new SkillflowError('SERVICE_UNAVAILABLE', message, details),

  /** DEADLINE_EXCEEDED: an upstream (or the call) did not answer in time. */
  deadlineExceeded: (message?: string, details?: ErrorDetails): SkillflowError =>
    new SkillflowError('DEADLINE_EXCEEDED', message, details),
};
