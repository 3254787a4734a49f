/**
 * What cut a group short, and the group `error` built from it (partial errors). Messages name the operation by kind and extension only, never the query, so they
 * are safe wherever they end up.
 */
import { ShopError } from '../../upstream/index.js';
import { SkillflowError } from '../../../../../lib/errors/skillflow-error.js';
import type { ErrorCode } from '../../../../../lib/errors/catalogue.js';
import { GroupDeadlineError } from './deadline.js';
import type { GroupError } from './output.js';

/** One operation that did not complete. */
export interface GroupIssue {
  /** What was cut, e.g. "exact lookup (.com)" or "suggestion page 2 (.net)". */
  what: string;
  code: ErrorCode;
  /** Why, in words, e.g. "HTTP 503" or "the 40 s group deadline passed". */
  reason: string;
  /** From a 429's Retry-After, in ms. */
  retryAfterMs?: number;
}

const REASON_BY_KIND: Record<string, string> = {
  timeout: 'no answer within the idle timeout',
  network: 'the shop could not be reached',
  forbidden: 'HTTP 403',
  bad_request: 'HTTP 400',
  malformed: 'a malformed answer',
  incomplete: 'the stream ended without completing',
  proxy: 'the proxy fallback failed',
};

function shopReason(err: ShopError): string {
  if (err.kind === 'rate_limited') {
    const after =
      err.retryAfterMs === undefined ? '' : `; retry after ${Math.ceil(err.retryAfterMs / 1000)} s`;
    return `rate limited (HTTP 429${after})`;
  }
  if (err.kind === 'server') return `HTTP ${err.httpStatus ?? 500}`;
  return REASON_BY_KIND[err.kind] ?? 'an upstream failure';
}

/** Classifies why an operation failed or was cut. */
export function issueFrom(what: string, err: unknown): GroupIssue {
  if (err instanceof GroupDeadlineError) {
    return {
      what,
      code: 'DEADLINE_EXCEEDED',
      reason: `the ${Math.round(err.deadlineMs / 100) / 10} s group deadline passed`,
    };
  }
  if (err instanceof ShopError) {
    const issue: GroupIssue = { what, code: err.code, reason: shopReason(err) };
    if (err.kind === 'rate_limited' && err.retryAfterMs !== undefined) issue.retryAfterMs = err.retryAfterMs;
    return issue;
  }
  if (err instanceof SkillflowError) return { what, code: err.code, reason: err.message };
  return { what, code: 'UPSTREAM_UNAVAILABLE', reason: 'an unexpected upstream failure' };
}

/**
 * The group's error code: a rate limit wins (its Retry-After is what the caller needs), then
 * the deadline, then the first issue's code.
 */
function chooseCode(issues: readonly GroupIssue[]): ErrorCode {
  if (issues.some((i) => i.code === 'UPSTREAM_RATE_LIMITED')) return 'UPSTREAM_RATE_LIMITED';
  if (issues.some((i) => i.code === 'DEADLINE_EXCEEDED')) return 'DEADLINE_EXCEEDED';
  return issues[0]?.code ?? 'UPSTREAM_UNAVAILABLE';
}

/**
 * Builds the group `error` from its issues, or null when nothing was cut. `kept` is how many
 * completed checks survive; `unchecked` counts suggested names whose check never arrived.
 */
export function groupErrorFrom(
  issues: readonly GroupIssue[],
  kept: number,
  unchecked: number,
): GroupError | null {
  if (issues.length === 0) return null;
  const code = chooseCode(issues);
  const cut = issues.map((i) => `${i.what}: ${i.reason}`).join('; ');
  const tail = [
    unchecked > 0 ? `${unchecked} suggested name(s) were not checked` : '',
    kept > 0 ? `${kept} completed check(s) are kept` : 'nothing was checked',
  ]
    .filter(Boolean)
    .join('; ');
  const error: GroupError = { code, message: `Not completed: ${cut}. ${tail}.` };
  const waits = issues.flatMap((i) => (i.retryAfterMs === undefined ? [] : [i.retryAfterMs]));
  if (code === 'UPSTREAM_RATE_LIMITED' && waits.length > 0) {
    error.retry_after = Math.ceil(Math.max(...waits) / 1000);
  }
  return error;
}
