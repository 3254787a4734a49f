/**
 * The one limits object: each kind reaches its own limiter and counter, built from the
 * configuration, and refuses with that limit's whole 429 body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { parseKeyring } from '../crypto/keyring.js';
import { SkillflowError, toEnvelope } from '../errors/skillflow-error.js';
import type { Principal } from '../keys.js';
import { openStore, type Store } from '../store/db.js';
import { createLimits, type Limits } from './index.js';

/** The refusal of `p` as its envelope, its Retry-After in whole seconds, or 'not refused'. */
async function refusal(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    if (err instanceof SkillflowError) return { ...toEnvelope(err), retryAfterMs: err.retryAfterMs };
    throw err;
  }
  return 'not refused';
}

const principal: Principal = { keyId: 'key_1', ownerId: 'owner_1', scopes: ['*'], tier: 'free' };
const keyring = parseKeyring('test:' + Buffer.alloc(32, 7).toString('base64'), 'env');

describe('createLimits', () => {
  let store: Store;
  let limits: Limits;
  beforeAll(async () => {
    store = await openStore({ pgliteDir: 'memory://' });
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      RATE_LIMIT_FREE_PER_MINUTE: '2',
      PUBLIC_RATE_LIMIT_PER_MINUTE: '1',
      ENCYCLOPEDIA_OWNER_PER_MINUTE: '1',
      ICON_SVG_RATE_LIMIT_PER_MINUTE: '1',
      PROVIDER_RATE_LIMITS: 'shop=4/60',
      OWNER_PROVIDER_SHARE_PERCENT: '50',
      ANONYMOUS_IDENTITY_DAILY_CREDITS: '2',
    });
    limits = createLimits({ config, store, keyring });
  });
  afterAll(async () => store.close());

  it('tier: counts per owner, sets the headers, and answers (not throws) RATE_LIMITED past the limit', async () => {
    const headers: Record<string, number> = {};
    const reply = { header: (name: string, value: number) => (headers[name] = value) };
    expect(await limits.charge('tier', { principal, headers: reply })).toBeUndefined();
    expect(await limits.charge('tier', { principal, headers: reply })).toBeUndefined();
    expect(headers['x-ratelimit-remaining']).toBe(0);
    const over = await limits.charge('tier', { principal, headers: reply });
    expect(over && toEnvelope(over)).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: expect.stringMatching(/^The free tier allows 2 requests per minute; retry in \d+ s\.$/),
        details: { tier: 'free', limit: 2, window_seconds: 60, retry_after_seconds: expect.any(Number) },
      },
    });
  });

  it('ip, encyclopedia_owner, icon_svg_ip: each its own counter and its own message', async () => {
    await limits.charge('ip', 'addr-1');
    await limits.charge('encyclopedia_owner', 'key_1');
    await limits.charge('icon_svg_ip', 'addr-1');
    // Another subject has its own counter.
    expect(await refusal(limits.charge('ip', 'addr-2'))).toBe('not refused');
    expect(await refusal(limits.charge('ip', 'addr-1'))).toMatchObject({
      error: {
        code: 'RATE_LIMITED',
        message: expect.stringMatching(
          /^Unauthenticated routes allow 1 requests per minute from one address; retry in \d+ s\.$/,
        ),
        details: { limit: 1, window_seconds: 60 },
      },
    });
    expect(await refusal(limits.charge('encyclopedia_owner', 'key_1'))).toMatchObject({
      error: {
        code: 'RATE_LIMITED',
        details: { limit: 1, scope: 'encyclopedia per owner', window_seconds: 60 },
      },
    });
    expect(await refusal(limits.charge('icon_svg_ip', 'addr-1'))).toMatchObject({
      error: {
        code: 'RATE_LIMITED',
        message: expect.stringMatching(/^The icon SVG route allows 1 requests per minute from one address;/),
      },
    });
  });

  it('provider and owner_share: charge counts, busy reads the same counters', async () => {
    const uses = [{ provider: 'shop' }];
    expect(await limits.busy('owner_share', { ownerId: 'owner_1', providers: ['shop'] })).toBeUndefined();
    await limits.charge('owner_share', { ownerId: 'owner_1', providers: ['shop'], points: 2 });
    const share = await limits.busy('owner_share', { ownerId: 'owner_1', providers: ['shop'] });
    expect(share && toEnvelope(share).error.details).toEqual({
      provider: 'shop',
      owner_share_percent: 50,
      retry_after_seconds: expect.any(Number),
    });
    for (let i = 0; i < 4; i++)
      await limits.charge('provider', { provider: 'shop', skill: 'hosting.search_domains' });
    const busy = await limits.busy('provider', { skill: 'hosting.search_domains', uses });
    expect(busy && toEnvelope(busy).error).toEqual({
      code: 'UPSTREAM_RATE_LIMITED',
      message: expect.stringMatching(
        /^The shop provider limit for hosting.search_domains is reached; retry in \d+ s\.$/,
      ),
      details: {
        provider: 'shop',
        skill: 'hosting.search_domains',
        model: null,
        retry_after_seconds: expect.any(Number),
      },
    });
    // Another skill has its own counter.
    expect(await limits.busy('provider', { skill: 'design.search_icons', uses })).toBeUndefined();
  });

  it('anonymous_credits: a reservation per charge, refused past the allowance, given back by refund', async () => {
    const keys = limits.anonymous.keysFor('guest-aaaaaaaaaaaaaaaa', 'addr-1');
    const first = await limits.charge('anonymous_credits', { keys, credits: 1 });
    await limits.charge('anonymous_credits', { keys, credits: 1 });
    const refused = (await refusal(limits.charge('anonymous_credits', { keys, credits: 1 }))) as {
      error: { message: string; details: { retry_after_seconds: number } };
      retryAfterMs: number;
    };
    expect(refused).toMatchObject({
      error: { code: 'ANONYMOUS_LIMIT_EXHAUSTED', details: { reason: 'daily_limit_reached' } },
    });
    expect(refused.error.details.retry_after_seconds).toBe(Math.ceil(refused.retryAfterMs / 1000));
    await limits.refund('anonymous_credits', first);
    expect(await refusal(limits.charge('anonymous_credits', { keys, credits: 1 }))).toBe('not refused');
  });

  it('owner_quota needs the Temporal client; the worker builds its limits without one', async () => {
    expect(limits.ownerQuotas).toBeUndefined();
    await expect(limits.charge('owner_quota', { ownerId: 'owner_1', quota: 'running_runs' })).rejects.toThrow(
      'owner quotas need the Temporal client',
    );
  });
});
