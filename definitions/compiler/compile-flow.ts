/**
 * Compiles the flow-control parts of a step: `wait` (a durable timer), `fail` (the author's own
 * error) and `retry` (a step's narrower retry rule). Every problem is reported at its field.
 */
import { ERROR_CATALOGUE } from '../../lib/errors/catalogue.js';
import type { RetryBounds } from '../catalog.js';
import { LIMITS } from '../limits.js';
import type {
  ApprovalPlanStep,
  FailPlanStep,
  RetryOverride,
  TemplateNode,
  WaitPlanStep,
} from '../runtime/plan.js';
import { parseInstant } from '../runtime/wait.js';
import type { ApprovalSource, FailSource, RetrySource, WaitSource } from '../schema/definition-schema.js';
import { compileInputSpecs } from './compile-trigger.js';
import type { DocPath } from '../source/source-map.js';
import { compileTemplate } from './compile-template.js';
import { parseDuration } from './duration.js';
import type { ReferenceScope } from './reference-checker.js';

/** An author's error code: upper snake case, 3-64 characters. */
export const FAIL_CODE_PATTERN = /^[A-Z][A-Z0-9_]{2,63}$/;

type Report = (
  code: Parameters<ReferenceScope['map']['diagnostic']>[0],
  message: string,
  path: DocPath,
) => void;

function reporter(scope: ReferenceScope): Report {
  return (code, message, path) => scope.diagnostics.push(scope.map.diagnostic(code, message, path));
}

/** `wait: { duration }` or `wait: { until }`, exactly one. */
export function compileWait(
  source: WaitSource,
  path: DocPath,
  scope: ReferenceScope,
): Pick<WaitPlanStep, 'durationMs' | 'until'> | undefined {
  const report = reporter(scope);
  if ((source.duration === undefined) === (source.until === undefined)) {
    report('INVALID_VALUE', 'wait needs exactly one of duration and until.', path);
    return undefined;
  }
  if (source.duration !== undefined) {
    const ms = parseDuration(source.duration);
    if (ms === undefined) {
      report('INVALID_DURATION', 'Invalid duration: use one such as 30s, 10m or 1d, at least 1s.', [
        ...path,
        'duration',
      ]);
      return undefined;
    }
    if (ms > LIMITS.maxWaitMs) {
      report('INVALID_DURATION', 'A wait may last at most 366 days.', [...path, 'duration']);
      return undefined;
    }
    return { durationMs: ms };
  }
  const untilPath = [...path, 'until'];
  const until = compileTemplate(source.until!, scope, { path: untilPath, offset: 0 });
  // Written as a fixed instant: check it now (an instant that has passed continues at once).
  if (isPlainText(until) && parseInstant(textOf(until)) === undefined) {
    report(
      'INVALID_VALUE',
      'until must be an ISO-8601 instant with an offset, such as 2026-12-01T09:00:00Z, or a template that renders one.',
      untilPath,
    );
    return undefined;
  }
  return { until };
}

/**
 * `wait_for_approval: { title, payload?, timeout, on_timeout? }`: the title a template, the
 * payload typed fields like run inputs, the timeout 1m-30d.
 */
export function compileApproval(
  source: ApprovalSource,
  path: DocPath,
  scope: ReferenceScope,
): Pick<ApprovalPlanStep, 'title' | 'payload' | 'timeoutMs' | 'onTimeout'> | undefined {
  const report = reporter(scope);
  const title = compileTemplate(source.title, scope, { path: [...path, 'title'], offset: 0 });
  const payload = compileInputSpecs(
    source.payload ?? {},
    [...path, 'payload'],
    scope.map,
    scope.diagnostics,
    new Map(),
    'payload field',
  );
  const ms = parseDuration(source.timeout);
  if (ms === undefined || ms < LIMITS.minApprovalTimeoutMs || ms > LIMITS.maxApprovalTimeoutMs) {
    report('INVALID_DURATION', 'An approval timeout is a duration from 1m to 30d, such as 24h.', [
      ...path,
      'timeout',
    ]);
    return undefined;
  }
  return { title, payload, timeoutMs: ms, onTimeout: source.on_timeout ?? 'fail' };
}

/** `fail: { code, message }`: the author's code (not one of the platform's) and message template. */
export function compileFail(
  source: FailSource,
  path: DocPath,
  scope: ReferenceScope,
): Pick<FailPlanStep, 'code' | 'message'> | undefined {
  const report = reporter(scope);
  let ok = true;
  if (!FAIL_CODE_PATTERN.test(source.code)) {
    report('INVALID_VALUE', `A fail code must match ${FAIL_CODE_PATTERN.source}.`, [...path, 'code']);
    ok = false;
  } else if (Object.hasOwn(ERROR_CATALOGUE, source.code)) {
    report('INVALID_VALUE', "The code is one of the platform's error codes; choose one of your own.", [
      ...path,
      'code',
    ]);
    ok = false;
  }
  const message = compileTemplate(source.message, scope, { path: [...path, 'message'], offset: 0 });
  return ok ? { code: source.code, message } : undefined;
}

/** `retry:` within the bounds of the step's policy profile (`RETRY_OUT_OF_POLICY` beyond them). */
export function compileRetry(
  source: RetrySource,
  path: DocPath,
  bounds: RetryBounds,
  scope: ReferenceScope,
): RetryOverride | undefined {
  const report = reporter(scope);
  const retry: RetryOverride = {};
  let ok = true;
  if (source.max_attempts !== undefined) {
    if (source.max_attempts > bounds.maximumAttempts) {
      report('RETRY_OUT_OF_POLICY', `The step's policy allows at most ${bounds.maximumAttempts} attempts.`, [
        ...path,
        'max_attempts',
      ]);
      ok = false;
    } else retry.maximumAttempts = source.max_attempts;
  }
  if (source.initial_interval !== undefined) {
    const ms = parseDuration(source.initial_interval);
    if (ms === undefined) {
      report('INVALID_DURATION', 'Invalid duration: use one such as 1s or 30s, at least 1s.', [
        ...path,
        'initial_interval',
      ]);
      ok = false;
    } else if (ms > bounds.maximumIntervalMs) {
      report(
        'RETRY_OUT_OF_POLICY',
        `The step's policy waits at most ${bounds.maximumIntervalMs / 1000}s between attempts.`,
        [...path, 'initial_interval'],
      );
      ok = false;
    } else retry.initialIntervalMs = ms;
  }
  if (source.backoff !== undefined) retry.backoffCoefficient = source.backoff;
  return ok && Object.keys(retry).length > 0 ? retry : undefined;
}

function isPlainText(nodes: TemplateNode[]): boolean {
  return nodes.every((n) => n.kind === 'text');
}

function textOf(nodes: TemplateNode[]): string {
  return nodes.map((n) => (n.kind === 'text' ? n.text : '')).join('');
}
