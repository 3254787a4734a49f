/**
 * Signed tokens: `v1.<key id>.<base64url JSON claims>.<base64url HMAC-SHA256>` under the
 * keyring's subkey for one purpose of the named key (so a rotated-in key still verifies tokens
 * signed before, and a token of one purpose never verifies as another's). The signature is
 * compared in constant time; a token longer than its limit, malformed, signed by an unknown key
 * or tampered with opens to undefined, always the same answer. What the claims mean (expiry
 * included) is the caller's.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { subkey, type KeyPurpose, type Keyring } from './keyring.js';

/** The purposes whose subkeys sign tokens. */
export type TokenPurpose = Extract<KeyPurpose, 'approval-link'>;

function mac(keyring: Keyring, purpose: TokenPurpose, keyId: string, body: string): Buffer {
  return createHmac('sha256', subkey(keyring, keyId, purpose))
    .update(`v1.${keyId}.${body}`)
    .digest();
}

/** The token of `claims`, signed under the active key. */
export function signToken(keyring: Keyring, purpose: TokenPurpose, claims: object): string {
  const keyId = keyring.activeKeyId;
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `v1.${keyId}.${body}.${mac(keyring, purpose, keyId, body).toString('base64url')}`;
}

/** The parsed claims of an authentic token (not yet checked for shape or expiry); undefined otherwise. */
export function openToken(
  keyring: Keyring,
  purpose: TokenPurpose,
  token: unknown,
  maxChars: number,
): unknown {
  if (typeof token !== 'string' || token.length > maxChars) return undefined;
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== 'v1') return undefined;
  const [, keyId = '', body = '', sig = ''] = parts;
  if (!keyring.keys.has(keyId)) return undefined;
  const expected = mac(keyring, purpose, keyId, body);
  const given = Buffer.from(sig, 'base64url');
  // Only the exact encoding: base64url decoding skips stray and trailing characters.
  if (given.toString('base64url') !== sig) return undefined;
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
