import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/db.js';
import { SkillflowError } from '../errors/skillflow-error.js';
import { OwnerProviderShare } from './owner-provider-share.js';

const rules = [
  { provider: 'shop', points: 10, durationSec: 60 },
  { provider: '*', points: 4, durationSec: 60 },
];

async function refusal(p: Promise<void>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err instanceof SkillflowError
      ? { code: err.code, message: err.message, details: err.details }
      : err;
  }
  return 'not refused';
}

describe.each([
  ['in memory', undefined],
  ['on the store', 'store'],
] as const)('OwnerProviderShare %s', (_name, backing) => {
  let store: Store | undefined;
  let share: OwnerProviderShare;
  beforeAll(async () => {
    if (backing) store = await openStore({ pgliteDir: 'memory://' });
    share = new OwnerProviderShare(rules, 50, store);
  });
  afterAll(async () => store?.close());

  it('gives each owner half of the shop budget, and leaves the other half to the others', async () => {
    expect(share.sharePoints('shop')).toBe(5);
    for (let i = 0; i < 5; i++) await share.acquire('owner_a', ['shop'], 1);
    expect(await refusal(share.acquire('owner_a', ['shop'], 1))).toEqual({
      code: 'UPSTREAM_RATE_LIMITED',
      message: expect.stringMatching(
        /^This account's share of the shop provider limit is used up; retry in \d+ s\.$/,
      ),
      details: { provider: 'shop', owner_share_percent: 50, retry_after_seconds: expect.any(Number) },
    });
    for (let i = 0; i < 5; i++) await share.acquire('owner_b', ['shop'], 1);
  });

  it('charges all providers or none', async () => {
    // `*` gives other providers 2 points each per owner.
    await share.acquire('owner_c', ['decision'], 2);
    expect(await refusal(share.acquire('owner_c', ['shop', 'decision'], 1))).toMatchObject({
      details: { provider: 'decision' },
    });
    // The shop point charged before the refusal was given back: 5 remain.
    for (let i = 0; i < 5; i++) await share.acquire('owner_c', ['shop'], 1);
    expect(await refusal(share.acquire('owner_c', ['shop'], 1))).toMatchObject({
      code: 'UPSTREAM_RATE_LIMITED',
    });
  });

  it('does nothing at 100 percent or for a provider without a rule', async () => {
    const whole = new OwnerProviderShare(rules, 100, store);
    for (let i = 0; i < 20; i++) await whole.acquire('owner_d', ['shop'], 1);
    const none = new OwnerProviderShare([{ provider: 'shop', points: 2, durationSec: 60 }], 50, store);
    for (let i = 0; i < 20; i++) await none.acquire('owner_d', ['icons'], 1);
  });
});
