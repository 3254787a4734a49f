/**
 * First-party workspace sessions: what a session token, a one-time sign-in code and a CSRF
 * token are, and the session cookie's attributes. A token is `ses_<43 chars of base64url>`
 * (256 bits); only its SHA-256 is stored. The CSRF token is an HMAC of the session id under the
 * keyring's `session-csrf` subkey (of the oldest key, so it survives rotations of the active
 * key): the workspace reads it from the API, a page on another site cannot, and every
 * state-changing request over a session must carry it in `X-CSRF-Token`.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiConfig, ProcessConfig } from './config.js';
import { subkey, type Keyring } from './crypto/keyring.js';

export const SESSION_TOKEN = /^ses_[A-Za-z0-9_-]{43}$/;
export const SIGN_IN_CODE = /^sic_[A-Za-z0-9_-]{43}$/;
/** A replaced cookie token stays valid this long, for requests that were already in flight. */
export const ROTATION_GRACE_MS = 60_000;
/** `last_used_at` and the idle expiry move at most once per this window. */
export const TOUCH_PRECISION_MS = 60_000;
/** Live sessions per owner; signing in past it ends the owner's oldest session. */
export const MAX_SESSIONS_PER_OWNER = 50;
/** The header a state-changing request over a session carries the CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

export const newSessionId = () => 'ses' + randomBytes(8).toString('hex');
export const newSessionToken = () => `ses_${randomBytes(32).toString('base64url')}`;
export const newSignInCode = () => `sic_${randomBytes(32).toString('base64url')}`;

/** The SHA-256 (hex) of a session token or sign-in code: what `web_sessions` stores. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** The CSRF token of a session. */
export function csrfTokenOf(keyring: Keyring, sessionId: string): string {
  return createHmac('sha256', subkey(keyring, keyring.hashKeyId, 'session-csrf'))
    .update(sessionId)
    .digest('base64url');
}

/** Does `given` equal the session's CSRF token (constant time)? */
export function csrfMatches(keyring: Keyring, sessionId: string, given: unknown): boolean {
  if (typeof given !== 'string' || given.length > 128) return false;
  const expected = Buffer.from(csrfTokenOf(keyring, sessionId));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export interface CookiePolicy {
  name: string;
  /**
   * A cookie scripts may read, set and cleared with the session cookie: it says only that this
   * browser holds a session, so the workspace asks for it (and a guest's page sends no request
   * that must fail). It grants nothing.
   */
  marker: string;
  secure: boolean;
}

/** The session cookie's name and `Secure` flag for this configuration. */
export function cookiePolicy(
  api: Pick<ApiConfig, 'SESSION_COOKIE_SECURE'>,
  env: ProcessConfig['NODE_ENV'],
): CookiePolicy {
  const secure =
    api.SESSION_COOKIE_SECURE === 'auto' ? env === 'production' : api.SESSION_COOKIE_SECURE === 'true';
  // `__Host-` binds the cookie to this exact host over https; browsers refuse it without Secure.
  const prefix = secure ? '__Host-' : '';
  return { name: `${prefix}skillflow_session`, marker: `${prefix}skillflow_signed_in`, secure };
}

function cookie(policy: CookiePolicy, nameValue: string, httpOnly: boolean, maxAgeS: number): string {
  const parts = [nameValue, 'Path=/'];
  if (httpOnly) parts.push('HttpOnly');
  parts.push('SameSite=Strict', `Max-Age=${Math.max(0, Math.floor(maxAgeS))}`);
  if (policy.secure) parts.push('Secure');
  return parts.join('; ');
}

/** The `Set-Cookie` value that stores `token` for `maxAgeS` seconds (0 clears it). */
export function sessionCookie(policy: CookiePolicy, token: string, maxAgeS: number): string {
  return cookie(policy, `${policy.name}=${token}`, true, maxAgeS);
}

/** The `Set-Cookie` value of the signed-in marker for `maxAgeS` seconds (0 clears it). */
export function markerCookie(policy: CookiePolicy, maxAgeS: number): string {
  return cookie(policy, `${policy.marker}=${maxAgeS > 0 ? '1' : ''}`, false, maxAgeS);
}

/** The session token in a `Cookie` header, if it holds a well-formed one under the policy's name. */
export function sessionTokenFrom(cookieHeader: string | undefined, policy: CookiePolicy): string | undefined {
  if (!cookieHeader || cookieHeader.length > 8192) return undefined;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== policy.name) continue;
    const value = part.slice(eq + 1).trim();
    return SESSION_TOKEN.test(value) ? value : undefined;
  }
  return undefined;
}

/** A short, bounded label of the signing-in browser, for the session list. */
export function userAgentLabel(header: string | undefined): string | null {
  if (!header) return null;
  // eslint-disable-next-line no-control-regex
  const clean = header.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean.length === 0 ? null : clean.slice(0, 200);
}
