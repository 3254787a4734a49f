/**
 * The owner of `power_design_cache`: power-design search results by the SHA-256 of the
 * normalised requirement payload, with a TTL. Public engineering data, stored in the clear;
 * the key is a hash, so not even the requirement is readable from the table.
 */
import type { Store } from '../db.js';

/** The cached value of a key, or undefined when there is none or it has expired. */
export async function readPowerCache(store: Store, key: string, now: Date): Promise<unknown> {
  const row = await store.db
    .selectFrom('power_design_cache')
    .select(['solutions'])
    .where('payload_key', '=', key)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ? (JSON.parse(row.solutions) as unknown) : undefined;
}

/** Stores (or replaces) a key's value until `expiresAt`, and drops expired rows. */
export async function writePowerCache(
  store: Store,
  entry: { key: string; value: unknown; expiresAt: Date; now: Date },
): Promise<void> {
  const solutions = JSON.stringify(entry.value);
  await store.db
    .insertInto('power_design_cache')
    .values({ payload_key: entry.key, solutions, expires_at: entry.expiresAt })
    .onConflict((oc) => oc.column('payload_key').doUpdateSet({ solutions, expires_at: entry.expiresAt }))
    .execute();
  await store.db.deleteFrom('power_design_cache').where('expires_at', '<=', entry.now).execute();
}
