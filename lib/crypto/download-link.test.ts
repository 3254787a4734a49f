/** Download link tokens: round trip, expiry, a fresh nonce per link, bad tokens refused. */
import { describe, expect, it } from 'vitest';
import { parseKeyring } from './keyring.js';
import { MAX_DOWNLOAD_TOKEN_CHARS, signDownloadLink, verifyDownloadLink } from './download-link.js';
import { signApprovalLink } from './approval-link.js';

const key = (n: number) => Buffer.alloc(32, n).toString('base64');
const ring = parseKeyring(`a:${key(1)}`, 'env');
const claims = {
  ownerId: 'owner_'.padEnd(64, 'x'),
  embedId: 'emb_'.padEnd(64, 'y'),
  asset: 'schematic' as const,
  design: 4,
  keyId: 'k0123456789abcdef',
  expiresAt: 2_000,
};

describe('download links', () => {
  it('verifies its own token until it expires, then says expired', () => {
    const token = signDownloadLink(ring, claims);
    expect(token).toMatch(/^v1\.a\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(token.length).toBeLessThanOrEqual(MAX_DOWNLOAD_TOKEN_CHARS);
    expect(verifyDownloadLink(ring, token, 1_999)).toEqual({ ok: true, claims });
    expect(verifyDownloadLink(ring, token, 2_000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('never signs the same token twice', () => {
    expect(signDownloadLink(ring, claims)).not.toBe(signDownloadLink(ring, claims));
  });

  it('refuses tampered, foreign, other-purpose and malformed tokens as invalid', () => {
    const token = signDownloadLink(ring, claims);
    const [v, id, body, sig] = token.split('.') as [string, string, string, string];
    const json = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    const otherBody = Buffer.from(JSON.stringify({ ...json, o: 'owner_b' })).toString('base64url');
    for (const bad of [
      `${v}.${id}.${otherBody}.${sig}`,
      `${v}.${id}.${body}.${sig.slice(0, -2)}AA`,
      signDownloadLink(parseKeyring(`a:${key(9)}`, 'env'), claims),
      signApprovalLink(ring, { run: 'r', step: 's', exp: 9e12 }),
      `${token}${'A'.repeat(MAX_DOWNLOAD_TOKEN_CHARS)}`,
      'v1.a..',
      '',
      undefined,
    ])
      expect(verifyDownloadLink(ring, bad, 0)).toEqual({ ok: false, reason: 'invalid' });
  });
});
