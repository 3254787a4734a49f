/**
 * API keys. A token is `sf_<key id>_<43 chars of base64url randomness>` (256 bits); only its
 * SHA-256 is stored (a fast hash is enough for a full-entropy secret; no password stretching
 * needed). Keys are scoped: `*` (everything a tenant may do), `workflows`, `keys` (manage keys),
 * `app:<app_id>` or `skill:<app_id>.<skill_id>`; and `admin` (operator: health details), which
 * `*` does not include.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Store } from './store/db.js';

export const ScopeSchema = z
  .string()
  .regex(
    /^(\*|workflows|keys|admin|app:[a-z][a-z0-9_]{0,63}|skill:[a-z][a-z0-9_]{0,63}\.[a-z][a-z0-9_]{0,63})$/,
    'must be *, workflows, keys, admin, app:<app_id> or skill:<app_id>.<skill_id>',
  );
export type Scope = z.infer<typeof ScopeSchema>;

export const TIERS = ['free', 'standard', 'pro'] as const;
export type Tier = (typeof TIERS)[number];

export interface Principal {
  keyId: string;
  ownerId: string;
  scopes: Scope[];
  tier: Tier;
}

export interface CreatedKey {
  id: string;
  token: string;
  name: string;
  scopes: Scope[];
  tier: Tier;
  ownerId: string;
}

const TOKEN = /^sf_(k[a-z0-9]{16})_([A-Za-z0-9_-]{43})$/;

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export async function createKey(
  store: Store,
  opts: { name: string; scopes: Scope[]; ownerId: string; tier?: Tier },
): Promise<CreatedKey> {
  const id = 'k' + randomBytes(8).toString('hex');
  const token = `sf_${id}_${randomBytes(32).toString('base64url')}`;
  const tier = opts.tier ?? 'standard';
  await store.db
    .insertInto('api_keys')
    .values({
      id,
      name: opts.name,
      token_hash: hashToken(token),
      scopes: JSON.stringify(opts.scopes),
      tier,
      owner_id: opts.ownerId,
      last_used_at: null,
      revoked_at: null,
    })
    .execute();
  return { id, token, name: opts.name, scopes: opts.scopes, tier, ownerId: opts.ownerId };
}

/** The principal behind a token, or undefined for an unknown, malformed or revoked token. */
export async function verifyToken(store: Store, token: string): Promise<Principal | undefined> {
  const m = TOKEN.exec(token);
  if (!m) return undefined;
  const row = await store.db
    .selectFrom('api_keys')
    .select(['id', 'token_hash', 'scopes', 'tier', 'owner_id', 'revoked_at'])
    .where('id', '=', m[1]!)
    .executeTakeFirst();
  if (!row || row.revoked_at) return undefined;
  const expected = Buffer.from(row.token_hash, 'hex');
  const given = Buffer.from(hashToken(token), 'hex');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  const scopes = (typeof row.scopes === 'string' ? JSON.parse(row.scopes) : row.scopes) as Scope[];
  return {
    keyId: row.id,
    ownerId: row.owner_id,
    scopes,
    tier: (TIERS as readonly string[]).includes(row.tier) ? (row.tier as Tier) : 'standard',
  };
}

export async function listKeys(store: Store, ownerId: string) {
  return store.db
    .selectFrom('api_keys')
    .select(['id', 'name', 'scopes', 'tier', 'created_at', 'last_used_at', 'revoked_at'])
    .where('owner_id', '=', ownerId)
    .orderBy('created_at')
    .execute();
}

export async function revokeKey(store: Store, ownerId: string, keyId: string): Promise<boolean> {
  const res = await store.db
    .updateTable('api_keys')
    .set({ revoked_at: new Date() })
    .where('id', '=', keyId)
    .where('owner_id', '=', ownerId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
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
 * every tenant scope but not `admin`, `app:x` covers `skill:x.*`.
 */
export function mayGrant(p: Principal, scope: Scope): boolean {
  if (p.scopes.includes(scope)) return true;
  if (scope === 'admin' || scope === '*') return false;
  if (p.scopes.includes('*')) return true;
  const m = /^skill:([a-z0-9_]+)\./.exec(scope);
  return m !== null && p.scopes.includes(`app:${m[1]}`);
}
