import { describe, expect, it } from 'vitest';
import { errors, retryAfterSeconds } from './errors.js';
import { toEnvelope, type SkillflowError } from './skillflow-error.js';

const wire = (e: SkillflowError) => ({ ...toEnvelope(e), status: e.status, retryAfterMs: e.retryAfterMs });

describe('retryAfterSeconds', () => {
  it('rounds up to whole seconds, at least 1', () => {
    expect([0, -5, 1, 999, 1000, 1001, 59_001].map(retryAfterSeconds)).toEqual([1, 1, 1, 1, 1, 2, 60]);
  });
});

describe('errors: 429 factories', () => {
  it('rateLimited: the rule, the wait in whole seconds, retry_after_seconds last, the rounded ms carried', () => {
    const e = errors.rateLimited({
      rule: 'The free tier allows 60 requests per minute',
      details: { tier: 'free', limit: 60, window_seconds: 60 },
      retryAfterMs: 41_200,
    });
    expect(wire(e)).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: 'The free tier allows 60 requests per minute; retry in 42 s.',
        details: { tier: 'free', limit: 60, window_seconds: 60, retry_after_seconds: 42 },
      },
      status: 429,
      retryAfterMs: 42_000,
    });
    expect(Object.keys(e.details)).toEqual(['tier', 'limit', 'window_seconds', 'retry_after_seconds']);
  });

  it('rateLimited: a wait already over still asks for one second', () => {
    const e = errors.rateLimited({ rule: 'This API key already has 3 calls queued', retryAfterMs: -20 });
    expect([e.message, e.details, e.retryAfterMs]).toEqual([
      'This API key already has 3 calls queued; retry in 1 s.',
      { retry_after_seconds: 1 },
      1000,
    ]);
  });

  it('upstreamRateLimited: provider first, then the details', () => {
    const e = errors.upstreamRateLimited({
      rule: 'The shop provider limit for hosting.search_domains is reached',
      provider: 'shop',
      details: { skill: 'hosting.search_domains', model: null },
      retryAfterMs: 3001,
    });
    expect(wire(e)).toEqual({
      error: {
        code: 'UPSTREAM_RATE_LIMITED',
        message: 'The shop provider limit for hosting.search_domains is reached; retry in 4 s.',
        details: { provider: 'shop', skill: 'hosting.search_domains', model: null, retry_after_seconds: 4 },
      },
      status: 429,
      retryAfterMs: 4000,
    });
    expect(Object.keys(e.details)).toEqual(['provider', 'skill', 'model', 'retry_after_seconds']);
  });

  it('upstreamSlowDown: rounded by default, exact when asked', () => {
    const rounded = errors.upstreamSlowDown({
      upstream: 'The icon upstream',
      provider: 'icons',
      retryAfterMs: 7200,
    });
    expect(wire(rounded)).toEqual({
      error: {
        code: 'UPSTREAM_RATE_LIMITED',
        message: 'The icon upstream asked us to slow down; retry in 8 s.',
        details: { provider: 'icons', retry_after_seconds: 8 },
      },
      status: 429,
      retryAfterMs: 8000,
    });
    const exact = errors.upstreamSlowDown({
      upstream: 'The power upstream',
      provider: 'power',
      retryAfterMs: 7200,
      exactMs: true,
    });
    expect([exact.message, exact.details, exact.retryAfterMs]).toEqual([
      'The power upstream asked us to slow down; retry in 8 s.',
      { provider: 'power', retry_after_seconds: 8 },
      7200,
    ]);
  });

  it('budgetExhausted', () => {
    const e = errors.budgetExhausted({
      rule: "The encyclopedia's outbound budget of 100 requests per minute is used up",
      provider: 'encyclopedia',
      details: { limit: 100, window_seconds: 60 },
      retryAfterMs: 500,
    });
    expect(wire(e)).toEqual({
      error: {
        code: 'BUDGET_EXHAUSTED',
        message: "The encyclopedia's outbound budget of 100 requests per minute is used up; retry in 1 s.",
        details: { provider: 'encyclopedia', limit: 100, window_seconds: 60, retry_after_seconds: 1 },
      },
      status: 429,
      retryAfterMs: 1000,
    });
  });

  it('anonymousLimitExhausted: the reason in words, the exact wait carried', () => {
    const e = errors.anonymousLimitExhausted({
      reason: 'shared_daily_limit_reached',
      retryAfterMs: 3_600_500,
    });
    expect(wire(e)).toEqual({
      error: {
        code: 'ANONYMOUS_LIMIT_EXHAUSTED',
        message:
          'The free allowance is used up (shared daily limit reached); retry in 3601 s or use an API token.',
        details: { reason: 'shared_daily_limit_reached', retry_after_seconds: 3601 },
      },
      status: 429,
      retryAfterMs: 3_600_500,
    });
  });

  it('ownerLimitReached: names the cap, carries no wait', () => {
    const e = errors.ownerLimitReached({ limit: 'queued_tasks', max: 5 });
    expect(wire(e)).toEqual({
      error: {
        code: 'OWNER_LIMIT_REACHED',
        message: 'This account may have at most 5 open skill-call tasks.',
        details: { limit: 'queued_tasks', max: 5 },
      },
      status: 429,
      retryAfterMs: undefined,
    });
  });
});

describe('errors: other factories', () => {
  it('invalidRequest: the first path in the message, the location on each issue', () => {
    const e = errors.invalidRequest('querystring', [
      { path: 'limit', message: 'too big' },
      { path: '', message: 'bad' },
    ]);
    expect(toEnvelope(e)).toEqual({
      error: {
        code: 'INVALID_PARAMETER',
        message: 'Invalid querystring at limit: too big',
        details: {
          issues: [
            { path: 'limit', message: 'too big', location: 'querystring' },
            { path: '', message: 'bad', location: 'querystring' },
          ],
        },
      },
    });
    expect(errors.invalidRequest('body', [{ path: '', message: 'must be an object' }]).message).toBe(
      'Invalid body at (root): must be an object',
    );
  });

  it('notFound, skillNotFound, forbidden, conflict, unauthenticated', () => {
    expect(wire(errors.notFound('No task with this id.'))).toEqual({
      error: { code: 'NOT_FOUND', message: 'No task with this id.', details: {} },
      status: 404,
      retryAfterMs: undefined,
    });
    expect(toEnvelope(errors.skillNotFound())).toEqual({
      error: { code: 'SKILL_NOT_FOUND', message: 'No available skill with that id.', details: {} },
    });
    expect(toEnvelope(errors.forbidden('This team role may not spend credits.', { role: 'viewer' }))).toEqual(
      {
        error: {
          code: 'FORBIDDEN',
          message: 'This team role may not spend credits.',
          details: { role: 'viewer' },
        },
      },
    );
    expect([errors.conflict('Retry.').status, errors.unauthenticated().status]).toEqual([409, 401]);
  });

  it('invalidBody, unsafeContent, serviceUnavailable', () => {
    expect(toEnvelope(errors.invalidBody({ diagnostics: [] }))).toEqual({
      error: {
        code: 'INVALID_BODY',
        message: 'The request body is not valid JSON or YAML.',
        details: { diagnostics: [] },
      },
    });
    expect(
      toEnvelope(
        errors.unsafeContent({
          provider: 'power',
          message: 'The schematic could not be made safe to show.',
          details: { reason: 'script' },
        }),
      ),
    ).toEqual({
      error: {
        code: 'UNSAFE_CONTENT',
        message: 'The schematic could not be made safe to show.',
        details: { provider: 'power', reason: 'script' },
      },
    });
    const off = errors.serviceUnavailable('The encyclopedia is not configured (ENCYCLOPEDIA_URL).', {
      provider: 'encyclopedia',
    });
    expect([off.code, off.status, off.message, off.details]).toEqual([
      'SERVICE_UNAVAILABLE',
      503,
      'The encyclopedia is not configured (ENCYCLOPEDIA_URL).',
      { provider: 'encyclopedia' },
    ]);
  });

  it('upstreamUnavailable and upstreamMalformed name the provider first', () => {
    expect(
      toEnvelope(
        errors.upstreamUnavailable({
          provider: 'power',
          message: 'The power upstream answered HTTP 502.',
          details: { status: 502 },
        }),
      ),
    ).toEqual({
      error: {
        code: 'UPSTREAM_UNAVAILABLE',
        message: 'The power upstream answered HTTP 502.',
        details: { provider: 'power', status: 502 },
      },
    });
    expect(toEnvelope(errors.upstreamMalformed({ upstream: 'icon upstream', provider: 'icons' }))).toEqual({
      error: {
        code: 'UPSTREAM_MALFORMED',
        message: 'The icon upstream sent an answer that does not parse.',
        details: { provider: 'icons' },
      },
    });
  });
});
