/**
 * API key administration for /v1/keys: a new key belongs to the caller's owner and may carry
 * neither scopes the caller lacks nor a higher tier. Rows are read and written by their owner,
 * lib/store/owners/api-keys.ts.
 */
import { errors } from '../../lib/errors/errors.js';
import {
  asTier,
  createKey,
  mayGrant,
  TIERS,
  type CreatedKey,
  type Principal,
  type Scope,
  type Tier,
} from '../../lib/keys.js';
import type { PrincipalCache } from '../../lib/key-cache.js';
import type { Store } from '../../lib/store/db.js';
import { listApiKeys, revokeApiKey, type ApiKeyRow } from '../../lib/store/owners/api-keys.js';

/** A key as its owner lists it: never the token or its hash. */
export type KeySummary = Omit<ApiKeyRow, 'tokenHash' | 'ownerId' | 'tier'> & { tier: Tier };

/** Creates, lists and revokes the caller's API keys. */
export class KeysService {
  constructor(
    private readonly store: Store,
    /** This process's key cache: a revoked key is dropped from it at once. */
    private readonly principals?: PrincipalCache,
  ) {}

  /** Creates a key for the caller's owner; FORBIDDEN for a scope or tier beyond the caller's. */
  async create(
    p: Principal,
    req: { name: string; scopes: Scope[]; tier?: Tier | undefined },
  ): Promise<CreatedKey> {
    const denied = req.scopes.filter((s) => !mayGrant(p, s));
    if (denied.length > 0)
      throw errors.forbidden('A key cannot grant scopes its creator lacks.', {
        scopes: denied,
      });
    const tier: Tier = req.tier ?? p.tier;
    if (TIERS.indexOf(tier) > TIERS.indexOf(p.tier)) {
      throw errors.forbidden(`A key cannot have a higher tier than its creator (${p.tier}).`, {
        tier,
      });
    }
    return createKey(this.store, { name: req.name, scopes: req.scopes, ownerId: p.ownerId, tier });
  }

  /** The owner's keys, oldest first. */
  async list(ownerId: string): Promise<KeySummary[]> {
    return (await listApiKeys(this.store, ownerId)).map(({ tokenHash: _h, ownerId: _o, ...key }) => ({
      ...key,
      tier: asTier(key.tier),
    }));
  }

  /** Revokes one of the owner's active keys; NOT_FOUND otherwise. */
  async revoke(ownerId: string, keyId: string): Promise<void> {
    const revoked = await revokeApiKey(this.store, ownerId, keyId);
    this.principals?.forgetKey(keyId);
    if (!revoked) throw errors.notFound('No active key with this id.');
  }
}
