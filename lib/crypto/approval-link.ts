/**
 * Approval links: a token that lets someone without an API key decide one waiting approval.
 * `v1.<key id>.<base64url JSON { run, step, exp }>.<base64url HMAC-SHA256>` under the keyring's
 * `approval-link` subkey of the named key (so a rotated-in key still verifies links signed
 * before). The signature is compared in constant time; a token longer than `MAX_TOKEN_CHARS`,
 * malformed, signed by an unknown key, tampered with or expired is refused, always with the same
 * answer. A link is single-use because the approval it names takes one decision.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { subkey, type Keyring } from './keyring.js';

export const MAX_TOKEN_CHARS = 1024;

/** What a link names: one step of one run, until the approval's own expiry. */
export interface ApprovalLinkClaims {
  run: string;
  step: string;
  /** Milliseconds since the epoch. */
  exp: number;
}

function mac(keyring: Keyring, keyId: string, body: string): Buffer {
  return createHmac('sha256', subkey(keyring, keyId, 'approval-link'))
    .update(`v1.${keyId}.${body}`)
    .digest();
}

export function signApprovalLink(keyring: Keyring, claims: ApprovalLinkClaims): string {
  const keyId = keyring.activeKeyId;
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `v1.${keyId}.${body}.${mac(keyring, keyId, body).toString('base64url')}`;
}

/** The claims of a valid, unexpired token; undefined for anything else. */
export function verifyApprovalLink(
  keyring: Keyring,
  token: unknown,
  nowMs: number,
): ApprovalLinkClaims | undefined {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_CHARS) return undefined;
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== 'v1') return undefined;
  const [, keyId = '', body = '', sig = ''] = parts;
  if (!keyring.keys.has(keyId)) return undefined;
  const expected = mac(keyring, keyId, body);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const c = claims as Partial<ApprovalLinkClaims>;
  if (typeof c?.run !== 'string' || typeof c.step !== 'string' || typeof c.exp !== 'number') return undefined;
  if (c.exp <= nowMs) return undefined;
  return { run: c.run, step: c.step, exp: c.exp };
}
