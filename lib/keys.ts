/**
 * API keys. A token is `sf_<key id>_<43 chars of base64url randomness>` (256 bits); only its
 * SHA-256 is stored (a fast hash is enough for a full-entropy secret; no password stretching
 * needed). Keys are scoped: `*` (everything a tenant may do), `workflows`, `keys` (manage keys),
 * `app:<app_id>` or `skill:<app_id>.<skill_id>`; and the operator-granted scopes, which `*` does
 * not include: `admin` (health details) and the approved-client options of
 * {@link RESTRICTED_SCOPES} (`icons:all-licenses`: icon searches with `license_policy: all`).
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Store } from './store/db.js';
import { apiKeyById, insertApiKey } from './store/owners/api-keys.js';

export const ScopeSchema = z
  .string()
  .regex(
    /^(\*|workflows|keys|admin|icons:all-licenses|app:[a-z][a-z0-9_]{0,63}|skill:[a-z][a-z0-9_]{0,63}\.[a-z][a-z0-9_]{0,63})$/,
    'must be *, workflows, keys, admin, icons:all-licenses, app:<app_id> or skill:<app_id>.<skill_id>',
  );
export type Scope = z.infer<typeof ScopeSchema>;

/**
 * Scopes that unlock an input option of a skill for approved client flows (a skill manifest's
 * `restrictedOptions` names them). Like `admin`, `*` does not include them: a key holds one only
 * when a key that holds it, or the operator, granted it by name.
 */
export const RESTRICTED_SCOPES = ['icons:all-licenses'] as const;
export type RestrictedScope = (typeof RESTRICTED_SCOPES)[number];

/** The restricted scopes a principal holds by name. */
export function restrictedScopesOf(p: Pick<Principal, 'scopes'>): RestrictedScope[] {
  return RESTRICTED_SCOPES.filter((s) => p.scopes.includes(s));
}

/** `{ grants }` for a task or run the principal starts: its restricted scopes, when it holds any. */
export function grantsOf(p: Pick<Principal, 'scopes'>): { grants?: RestrictedScope[] } {
  const grants = restrictedScopesOf(p);
  return grants.length > 0 ? { grants } : {};
}

/** A key's label: not blank, at most 100 characters, no control characters (trimmed). */
export const KeyNameSchema = z
  .string()
  .trim()
  // A pattern, not a length, so the document says what is refused: a blank name (trimmed away).
  .regex(/\S/, 'must not be blank')
  .max(100)
  // Control characters are exactly what the rule refuses (the store cannot keep NUL).
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');

export const TIERS = ['free', 'standard', 'pro'] as const;
export type Tier = (typeof TIERS)[number];

export interface Principal {
  keyId: string;
  ownerId: string;
  scopes: Scope[];
  tier: Tier;
  /** Set when the request came over a first-party workspace session (lib/web-sessions.ts). */
  sessionId?: string;
}

export interface CreatedKey {
  id: string;
  token: string;
  name: string;
  scopes: Scope[];
  tier: Tier;
  ownerId: string;
  createdAt: Date;
}

const TOKEN = /^sf_(k[a-z0-9]{16})_([A-Za-z0-9_-]{43})$/;

/** The SHA-256 (hex) of a token: what `api_keys` stores, and the key of the verification cache. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** A stored tier, or `standard` for a value this version does not know. */
export function asTier(tier: string): Tier {
  return (TIERS as readonly string[]).includes(tier) ? (tier as Tier) : 'standard';
}

/** Makes a key and stores its hash (lib/store/owners/api-keys.ts); the token is only in the answer. */
export async function createKey(
  store: Store,
  opts: { name: string; scopes: Scope[]; ownerId: string; tier?: Tier },
): Promise<CreatedKey> {
  const id = 'k' + randomBytes(8).toString('hex');
  const token = `sf_${id}_${randomBytes(32).toString('base64url')}`;
  const tier = opts.tier ?? 'standard';
  const row = await insertApiKey(store, {
    id,
    name: opts.name,
    tokenHash: hashToken(token),
    scopes: opts.scopes,
    tier,
    ownerId: opts.ownerId,
  });
  return {
    id,
    token,
    name: opts.name,
    scopes: opts.scopes,
    tier,
    ownerId: opts.ownerId,
    createdAt: row.createdAt,
  };
}

/** The principal behind a token, or undefined for an unknown, malformed or revoked token. */
export async function verifyToken(store: Store, token: string): Promise<Principal | undefined> {
  const m = TOKEN.exec(token);
  if (!m) return undefined;
  const row = await apiKeyById(store, m[1]!);
  if (!row || row.revokedAt) return undefined;
  const expected = Buffer.from(row.tokenHash, 'hex');
  const given = Buffer.from(hashToken(token), 'hex');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  return { keyId: row.id, ownerId: row.ownerId, scopes: row.scopes, tier: asTier(row.tier) };
}

/** The principal of an active key by its id (a session's key), or undefined once revoked. */
export async function principalOfKey(store: Store, keyId: string): Promise<Principal | undefined> {
  const row = await apiKeyById(store, keyId);
  if (!row || row.revokedAt) return undefined;
  return { keyId: row.id, ownerId: row.ownerId, scopes: row.scopes, tier: asTier(row.tier) };
}

/** Does the principal's scope list allow calling this skill? */
export function allowsSkill(p: Principal, appId: string, skillId: string): boolean {
  return p.scopes.some((s) => s === '*' || s === `app:${appId}` || s === `skill:${appId}.${skillId}`);
}

/** The scopes a route can require by name. `admin` is never implied by `*`. */
export type NamedScope = 'workflows' | 'keys' | 'admin';

/** Does the principal hold this named scope (`*` covers `workflows` and `keys`)? */
export function allows(p: Principal, scope: NamedScope): boolean {
  if (scope === 'admin') return p.scopes.includes('admin');
  return p.scopes.includes('*') || p.scopes.includes(scope);
}

/** Does the principal allow a skill given as `<app>.<skill>`? */
export function allowsSkillRef(p: Principal, ref: string): boolean {
  const [appId = '', skillId = ''] = ref.split('.');
  return allowsSkill(p, appId, skillId);
}

/**
 * May the principal hand out this scope to a new key? Only what it holds itself: `*` covers
 * every tenant scope but not `admin` or a restricted scope, `app:x` covers `skill:x.*`.
 */
export function mayGrant(p: Principal, scope: Scope): boolean {
  if (p.scopes.includes(scope)) return true;
  if (scope === 'admin' || scope === '*' || (RESTRICTED_SCOPES as readonly string[]).includes(scope))
    return false;
  if (p.scopes.includes('*')) return true;
  const m = /^skill:([a-z0-9_]+)\./.exec(scope);
  return m !== null && p.scopes.includes(`app:${m[1]}`);
}
