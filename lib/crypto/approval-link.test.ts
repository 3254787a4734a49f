/** Approval link tokens: round trip, and every kind of bad token refused the same way. */
import { describe, expect, it } from 'vitest';
import { parseKeyring } from './keyring.js';
import { MAX_TOKEN_CHARS, signApprovalLink, verifyApprovalLink } from './approval-link.js';

const key = (n: number) => Buffer.alloc(32, n).toString('base64');
const ring = parseKeyring(`a:${key(1)}`, 'env');
const claims = { run: 'task_1', step: 'ok', exp: 2_000 };

describe('approval links', () => {
  it('verifies its own token until it expires', () => {
    const token = signApprovalLink(ring, claims);
    expect(token).toMatch(/^v1\.a\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyApprovalLink(ring, token, 1_999)).toEqual(claims);
    expect(verifyApprovalLink(ring, token, 2_000)).toBeUndefined();
  });

  it('still verifies after a new key is prepended, and not once its key is gone', () => {
    const token = signApprovalLink(ring, claims);
    const rotated = parseKeyring(`b:${key(2)},a:${key(1)}`, 'env');
    expect(verifyApprovalLink(rotated, token, 0)).toEqual(claims);
    expect(signApprovalLink(rotated, claims).startsWith('v1.b.')).toBe(true);
    expect(verifyApprovalLink(parseKeyring(`b:${key(2)}`, 'env'), token, 0)).toBeUndefined();
  });

  it('refuses tampered, foreign, malformed and oversized tokens', () => {
    const token = signApprovalLink(ring, claims);
    const [v, id, body, sig] = token.split('.') as [string, string, string, string];
    const otherBody = Buffer.from(JSON.stringify({ ...claims, run: 'task_2' })).toString('base64url');
    const foreign = signApprovalLink(parseKeyring(`a:${key(9)}`, 'env'), claims);
    for (const bad of [
      `${v}.${id}.${otherBody}.${sig}`,
      `${v}.${id}.${body}.${sig.slice(0, -2)}AA`,
      foreign,
      `v2.${id}.${body}.${sig}`,
      `${v}.zz.${body}.${sig}`,
      token.slice(0, -1),
      `${token}=`,
      'v1.a..',
      '',
      `${token}${'A'.repeat(MAX_TOKEN_CHARS)}`,
      42,
      null,
    ])
      expect(verifyApprovalLink(ring, bad, 0)).toBeUndefined();
  });
});
