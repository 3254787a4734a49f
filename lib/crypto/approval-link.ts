/**
 * Approval links: a token that lets someone without an API key decide one waiting approval.
 * A signed token (lib/crypto/signed-token.ts) of `{ run, step, exp }` under the keyring's
 * `approval-link` subkey. A token longer than `MAX_TOKEN_CHARS`, malformed, signed by an unknown
 * key, tampered with or expired is refused, always with the same answer. A link is single-use
 * because the approval it names takes one decision.
 */
import type { Keyring } from './keyring.js';
import { openToken, signToken } from './signed-token.js';

export const MAX_TOKEN_CHARS = 1024;

/** What a link names: one step of one run, until the approval's own expiry. */
export interface ApprovalLinkClaims {
  run: string;
  step: string;
  /** Milliseconds since the epoch. */
  exp: number;
}

export function signApprovalLink(keyring: Keyring, claims: ApprovalLinkClaims): string {
  return signToken(keyring, 'approval-link', claims);
}

/** The claims of a valid, unexpired token; undefined for anything else. */
export function verifyApprovalLink(
  keyring: Keyring,
  token: unknown,
  nowMs: number,
): ApprovalLinkClaims | undefined {
  const c = openToken(keyring, 'approval-link', token, MAX_TOKEN_CHARS) as
    Partial<ApprovalLinkClaims> | undefined;
  if (typeof c?.run !== 'string' || typeof c.step !== 'string' || typeof c.exp !== 'number') return undefined;
  if (c.exp <= nowMs) return undefined;
  return { run: c.run, step: c.step, exp: c.exp };
}
