/** Download link tokens: round trip, expiry, a fresh IV per link, claims unreadable, bad tokens refused. */
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
    expect(token).toMatch(/^v2\.a\.[A-Za-z0-9_-]+$/);
    expect(token.length).toBeLessThanOrEqual(MAX_DOWNLOAD_TOKEN_CHARS);
    expect(verifyDownloadLink(ring, token, 1_999)).toEqual({ ok: true, claims });
    expect(verifyDownloadLink(ring, token, 2_000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('never seals the same token twice', () => {
    expect(signDownloadLink(ring, claims)).not.toBe(signDownloadLink(ring, claims));
  });

  it('keeps what it names from whoever holds the link', () => {
    const token = signDownloadLink(ring, claims);
    const bytes = Buffer.from(token.split('.')[2]!, 'base64url');
    for (const text of [bytes.toString('utf8'), bytes.toString('latin1'), token])
      for (const named of [claims.ownerId, claims.embedId, claims.keyId, 'owner_', 'emb_', 'schematic'])
        expect(text).not.toContain(named);
  });

  it('refuses tampered, foreign, other-purpose and malformed tokens as invalid', () => {
    const token = signDownloadLink(ring, claims);
    const [v, id, sealed] = token.split('.') as [string, string, string];
    const flipped = `${sealed.slice(0, 40)}${sealed[40] === 'A' ? 'B' : 'A'}${sealed.slice(41)}`;
    const plain = Buffer.from(
      JSON.stringify({ o: 'owner_b', e: 'emb_1', a: 'parts', d: 0, k: 'k', exp: 9e12 }),
    );
    for (const bad of [
      `${v}.${id}.${flipped}`,
      `${v}.${id}.${sealed.slice(0, -2)}`,
      `${v}.${id}.${plain.toString('base64url')}`,
      `v1.${id}.${sealed}`,
      `${v}.b.${sealed}`,
      `${v}.${id}.${sealed}.x`,
      `${v}.${id}.${sealed}x`,
      `${v}.${id}.${sealed}=`,
      signDownloadLink(parseKeyring(`a:${key(9)}`, 'env'), claims),
      signApprovalLink(ring, { run: 'r', step: 's', exp: 9e12 }),
      `${token}${'A'.repeat(MAX_DOWNLOAD_TOKEN_CHARS)}`,
      'v2.a.',
      'v2.a.!!!',
      '',
      undefined,
    ])
      expect(verifyDownloadLink(ring, bad, 0)).toEqual({ ok: false, reason: 'invalid' });
  });
});
