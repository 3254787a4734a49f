import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook } from '../../sdk/webhooks.js';
import {
  checkSignature,
  HOOK_ID_PATTERN,
  hookSignature,
  newHookId,
  newSigningSecret,
  signatureHeader,
} from './hook-signature.js';

const SECRET = 'whsec_test-secret';
const BODY = Buffer.from('{"order_id":"o-1"}');
const NOW = 1_800_000_000;

describe('webhook signatures', () => {
  it('signs "<t>.<raw body>" with the secret string as the HMAC key', () => {
    const expected = createHmac('sha256', SECRET).update(`${NOW}.{"order_id":"o-1"}`).digest('hex');
    expect(hookSignature(SECRET, NOW, BODY)).toBe(expected);
    expect(signatureHeader(SECRET, BODY, NOW)).toBe(`t=${NOW},v1=${expected}`);
  });

  it('agrees with the JS SDK signer', async () => {
    expect(await signWebhook(SECRET, BODY.toString(), NOW)).toBe(signatureHeader(SECRET, BODY, NOW));
    expect(await signWebhook(SECRET, new Uint8Array(BODY), NOW)).toBe(signatureHeader(SECRET, BODY, NOW));
  });

  it('accepts a valid header within 5 minutes either way, under any of the secrets', () => {
    const at = (t: number, secret = SECRET) =>
      checkSignature(signatureHeader(secret, BODY, t), BODY, [SECRET, 'whsec_old'], NOW * 1000);
    expect(at(NOW)).toMatchObject({
      ok: true,
      t: NOW,
      signatureHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(at(NOW - 300).ok).toBe(true);
    expect(at(NOW + 300).ok).toBe(true);
    expect(at(NOW, 'whsec_old').ok).toBe(true);
    expect(at(NOW - 301)).toEqual({ ok: false, reason: 'stale' });
    expect(at(NOW + 301)).toEqual({ ok: false, reason: 'stale' });
    expect(at(NOW, 'whsec_other')).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('identifies an accepted signature by its timestamp and HMAC, whichever v1 matched', () => {
    const good = hookSignature(SECRET, NOW, BODY);
    const wrong = 'ab'.repeat(32);
    const a = checkSignature(`t=${NOW},v1=${good}`, BODY, [SECRET], NOW * 1000);
    const b = checkSignature(`t=${NOW},v1=${wrong},v1=${good},v0=legacy`, BODY, [SECRET], NOW * 1000);
    expect(a.ok && b.ok && a.signatureHash === b.signatureHash).toBe(true);
    const later = checkSignature(signatureHeader(SECRET, BODY, NOW + 1), BODY, [SECRET], NOW * 1000);
    expect(later.ok && a.ok && later.signatureHash !== a.signatureHash).toBe(true);
  });

  it.each([
    ['no header', undefined, 'missing'],
    ['an empty header', '', 'missing'],
    ['no v1', `t=${NOW}`, 'malformed'],
    ['no t', `v1=${'0'.repeat(64)}`, 'malformed'],
    ['two t', `t=${NOW},t=${NOW},v1=${'0'.repeat(64)}`, 'malformed'],
    ['a short v1', `t=${NOW},v1=abc`, 'malformed'],
    ['a non-numeric t', `t=soon,v1=${'0'.repeat(64)}`, 'malformed'],
    ['five v1', `t=${NOW}${`,v1=${'0'.repeat(64)}`.repeat(5)}`, 'malformed'],
    ['a part without =', `t=${NOW},v1`, 'malformed'],
    ['an over-long header', `t=${NOW},v1=${'0'.repeat(64)},x=${'y'.repeat(1024)}`, 'malformed'],
  ])('refuses %s', (_name, header, reason) => {
    expect(checkSignature(header, BODY, [SECRET], NOW * 1000)).toEqual({ ok: false, reason });
  });

  it('makes unguessable hook ids and secrets of the documented forms', () => {
    const ids = new Set(Array.from({ length: 100 }, newHookId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(HOOK_ID_PATTERN);
    expect(newSigningSecret()).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });
});
