/**
 * First-party workspace sessions (/v1/sessions): signing in with an API key or a one-time
 * sign-in link, resuming a session from its cookie (rotating the token every SESSION_ROTATE_S),
 * listing and revoking. A session acts with the scopes of the key that signed it in, read at every
 * request: revoking that key ends its sessions at once. Rows are read and written by their
 * owner, lib/store/owners/web-sessions.ts.
 */
import type { ApiConfig, ProcessConfig } from '../../lib/config.js';
import type { Keyring } from '../../lib/crypto/keyring.js';
import { errors } from '../../lib/errors/errors.js';
import { principalOfKey, type Principal } from '../../lib/keys.js';
import type { Store } from '../../lib/store/db.js';
import {
  exchangeWebSessionCode,
  insertWebSession,
  listWebSessions,
  pruneWebSessions,
  revokeWebSession,
  rotateWebSessionToken,
  touchWebSession,
  webSessionByToken,
  type WebSessionRow,
} from '../../lib/store/owners/web-sessions.js';
import {
  cookiePolicy,
  csrfTokenOf,
  hashSecret,
  markerCookie,
  MAX_SESSIONS_PER_OWNER,
  newSessionId,
  newSessionToken,
  newSignInCode,
  ROTATION_GRACE_MS,
  sessionCookie,
  SIGN_IN_CODE,
  TOUCH_PRECISION_MS,
  type CookiePolicy,
} from '../../lib/web-sessions.js';

export type { WebSessionRow };

/** A session just signed in: the cookies to set and the CSRF token the page must send. */
export interface SignedIn {
  session: WebSessionRow;
  cookies: string[];
  csrfToken: string;
}

/** A request's session: the principal it acts as, and a new cookie when the token rotated. */
export interface ResumedSession {
  principal: Principal;
  session: WebSessionRow;
  /** `Set-Cookie` for the rotated token; undefined when the token was kept. */
  cookie?: string;
}

type SessionConfig = Pick<
  ApiConfig,
  | 'SESSION_IDLE_TIMEOUT_S'
  | 'SESSION_MAX_AGE_S'
  | 'SESSION_ROTATE_S'
  | 'SESSION_COOKIE_SECURE'
  | 'SIGN_IN_LINK_TTL_S'
>;

export class SessionsService {
  readonly cookie: CookiePolicy;

  constructor(
    private readonly store: Store,
    readonly keyring: Keyring,
    private readonly config: SessionConfig,
    env: ProcessConfig['NODE_ENV'],
    private readonly now: () => Date = () => new Date(),
  ) {
    this.cookie = cookiePolicy(config, env);
  }

  /** When a session made at `createdAt` ends at the latest. */
  private maxExpiry(createdAt: Date): Date {
    return new Date(createdAt.getTime() + this.config.SESSION_MAX_AGE_S * 1000);
  }

  /** The idle expiry after a use at `at`, never past the session's maximum age. */
  private expiryAfterUse(createdAt: Date, at: Date): Date {
    const idle = at.getTime() + this.config.SESSION_IDLE_TIMEOUT_S * 1000;
    return new Date(Math.min(idle, this.maxExpiry(createdAt).getTime()));
  }

  private setCookie(token: string, createdAt: Date, at: Date): string {
    return sessionCookie(this.cookie, token, (this.maxExpiry(createdAt).getTime() - at.getTime()) / 1000);
  }

  /** The `Set-Cookie` values that remove the session cookie and its marker. */
  clearCookies(): string[] {
    return [sessionCookie(this.cookie, '', 0), markerCookie(this.cookie, 0)];
  }

  /** The `Set-Cookie` values of a session signed in at `at`: the token and the marker. */
  private signInCookies(token: string, at: Date): string[] {
    const maxAgeS = this.config.SESSION_MAX_AGE_S;
    return [this.setCookie(token, at, at), markerCookie(this.cookie, maxAgeS)];
  }

  csrfToken(sessionId: string): string {
    return csrfTokenOf(this.keyring, sessionId);
  }

  /**
   * Ends the owner's oldest sessions beyond MAX_SESSIONS_PER_OWNER - 1 (room for one more) and
   * deletes rows that ended over a day ago, so the table stays bounded.
   */
  private async makeRoom(ownerId: string, at: Date): Promise<void> {
    await pruneWebSessions(this.store, new Date(at.getTime() - 86_400_000));
    const live = await listWebSessions(this.store, ownerId, at);
    for (const old of live.slice(MAX_SESSIONS_PER_OWNER - 1))
      await revokeWebSession(this.store, ownerId, old.id, at);
  }

  /** Signs in with an API key: a new session of the key's owner, acting with the key's scopes. */
  async signIn(p: Principal, userAgent: string | null): Promise<SignedIn> {
    if (p.sessionId) throw errors.forbidden('Sign in with an API key: a session cannot start another one.');
    const at = this.now();
    await this.makeRoom(p.ownerId, at);
    const token = newSessionToken();
    const session = await insertWebSession(this.store, {
      id: newSessionId(),
      ownerId: p.ownerId,
      keyId: p.keyId,
      at,
      tokenHash: hashSecret(token),
      expiresAt: this.expiryAfterUse(at, at),
      userAgent,
    });
    return { session, cookies: this.signInCookies(token, at), csrfToken: this.csrfToken(session.id) };
  }

  /** A one-time sign-in link's code for the key's owner, valid SIGN_IN_LINK_TTL_S. */
  async createSignInCode(p: Principal): Promise<{ code: string; expiresAt: Date }> {
    if (p.sessionId) throw errors.forbidden('Sign-in links are made with an API key, not a session.');
    const at = this.now();
    const code = newSignInCode();
    const expiresAt = new Date(at.getTime() + this.config.SIGN_IN_LINK_TTL_S * 1000);
    await insertWebSession(this.store, {
      id: newSessionId(),
      ownerId: p.ownerId,
      keyId: p.keyId,
      at,
      codeHash: hashSecret(code),
      codeExpiresAt: expiresAt,
      expiresAt,
      userAgent: null,
    });
    return { code, expiresAt };
  }

  /** Spends a one-time sign-in code; UNAUTHENTICATED for an unknown, used or expired one. */
  async exchange(code: string, userAgent: string | null): Promise<SignedIn> {
    const refused = errors.unauthenticated(
      'This sign-in link is unknown, used or expired; ask for a new one.',
    );
    if (!SIGN_IN_CODE.test(code)) throw refused;
    const at = this.now();
    const token = newSessionToken();
    const session = await exchangeWebSessionCode(
      this.store,
      hashSecret(code),
      hashSecret(token),
      at,
      this.expiryAfterUse(at, at),
      userAgent,
    );
    if (!session) throw refused;
    if (!(await principalOfKey(this.store, session.keyId))) {
      // The key was revoked after the link was made: the link signs nobody in.
      await revokeWebSession(this.store, session.ownerId, session.id, at);
      throw refused;
    }
    await this.makeRoom(session.ownerId, at);
    return { session, cookies: this.signInCookies(token, at), csrfToken: this.csrfToken(session.id) };
  }

  /**
   * The session a cookie token names, with the principal of its key: undefined when the token is
   * unknown, the session ended (revoked, idle, too old) or its key was revoked. Records the use
   * and rotates the token once it is SESSION_ROTATE_S old.
   */
  async resume(token: string): Promise<ResumedSession | undefined> {
    const at = this.now();
    const tokenHash = hashSecret(token);
    const session = await webSessionByToken(this.store, tokenHash, at);
    if (!session) return undefined;
    const key = await principalOfKey(this.store, session.keyId);
    if (!key || key.ownerId !== session.ownerId) return undefined;
    const principal: Principal = { ...key, sessionId: session.id };
    await touchWebSession(
      this.store,
      session.id,
      at,
      this.expiryAfterUse(session.createdAt, at),
      TOUCH_PRECISION_MS,
    );
    if (
      session.byPreviousToken ||
      at.getTime() - session.rotatedAt.getTime() < this.config.SESSION_ROTATE_S * 1000
    )
      return { principal, session };
    const next = newSessionToken();
    const rotated = await rotateWebSessionToken(
      this.store,
      session.id,
      tokenHash,
      hashSecret(next),
      at,
      new Date(at.getTime() + ROTATION_GRACE_MS),
    );
    return rotated
      ? { principal, session, cookie: this.setCookie(next, session.createdAt, at) }
      : { principal, session };
  }

  /** The owner's live sessions, newest first. */
  list(ownerId: string): Promise<WebSessionRow[]> {
    return listWebSessions(this.store, ownerId, this.now());
  }

  /** Ends one of the owner's sessions; NOT_FOUND when there is no live one of that id. */
  async revoke(ownerId: string, sessionId: string): Promise<void> {
    if (!(await revokeWebSession(this.store, ownerId, sessionId, this.now())))
      throw errors.notFound('No active session with this id.');
  }
}
