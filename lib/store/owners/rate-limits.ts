/**
 * The owner of `rate_limits`: rate-limiter-flexible on the platform store. Its Postgres limiter speaks to a `pg`-style
 * client (`query({ text, values }) → { rows, rowCount }`); this adapter provides one over
 * Kysely, so the library's own upsert SQL runs unchanged on PGlite and on PostgreSQL.
 *
 * Queries run inside the transaction bound by {@link inLimiterTransaction} when there is one
 * (AsyncLocalStorage), else directly on the store. That is what makes a reservation across
 * several limiters all-or-nothing: every upsert happens in one transaction that rolls back if
 * any limiter rejects, and concurrent transactions serialise on the counter rows' locks.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Store } from '../db.js';
import type { Database } from '../schema.js';

/** The table created by migration 0003 (the library's own layout). */
export const RATE_LIMITS_TABLE = 'rate_limits';

const currentTx = new AsyncLocalStorage<Transaction<Database>>();

interface PgQuery {
  text: string;
  values?: unknown[];
}

/** Numbers stay numbers: PGlite and pg return int8 as bigint or string. */
function normaliseRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    out[k] =
      typeof v === 'bigint'
        ? Number(v)
        : (k === 'expire' || k === 'points') && typeof v === 'string'
          ? Number(v)
          : v;
  }
  return out;
}

/** A `pg`-compatible client over the store, routed to the bound transaction when there is one. */
export function storeClient(db: Kysely<Database>) {
  return {
    async query(q: PgQuery): Promise<{ rows: Record<string, unknown>[]; rowCount: number }> {
      const runner = currentTx.getStore() ?? db;
      const res = await runner.executeQuery<Record<string, unknown>>(
        CompiledQuery.raw(q.text, q.values ?? []),
      );
      const rows = res.rows.map(normaliseRow);
      return { rows, rowCount: rows.length || Number(res.numAffectedRows ?? 0) };
    },
  };
}

export interface LimiterSpec {
  /** Namespaces the counter keys, e.g. `tier:free`. */
  keyPrefix: string;
  points: number;
  durationSec: number;
}

/** A store-backed limiter. The table comes from the migrations, so the library never creates it. */
export function storeLimiter(store: Store, spec: LimiterSpec): RateLimiterPostgres {
  return new RateLimiterPostgres({
    storeClient: storeClient(store.db),
    storeType: 'client',
    tableName: RATE_LIMITS_TABLE,
    tableCreated: true,
    clearExpiredByTimeout: false,
    keyPrefix: spec.keyPrefix,
    points: spec.points,
    duration: spec.durationSec,
  });
}

/**
 * Runs `fn` in one store transaction that every limiter query inside joins. On PGlite there is
 * a single connection, so transactions are serialised by the driver; on PostgreSQL the row
 * locks taken by the upserts serialise competing reservations.
 */
export function inLimiterTransaction<T>(store: Store, fn: () => Promise<T>): Promise<T> {
  return store.db.transaction().execute((tx) => currentTx.run(tx, fn));
}

/** A limiter's rejection (not an error): the library rejects with a RateLimiterRes. */
export function isRejection(err: unknown): err is RateLimiterRes {
  return err instanceof RateLimiterRes;
}

/** Deletes counters whose window ended over an hour ago (called on a timer by the API). */
export async function clearExpiredCounters(store: Store, now = Date.now()): Promise<void> {
  await store.db
    .deleteFrom('rate_limits')
    .where('expire', '<', now - 3_600_000)
    .execute();
}

/** One counter to charge in {@link chargeCounters}: its full key (limiter prefix and key). */
export interface CounterCharge {
  key: string;
  points: number;
  durationSec: number;
}

/** A counter after a charge: points used in its window and the time to its reset. */
export interface CounterState {
  consumed: number;
  msBeforeNext: number;
}

/**
 * Sums the points of repeated keys (one statement may not update a row twice) and sorts by key,
 * so concurrent statements lock shared rows in one order and cannot deadlock on PostgreSQL.
 */
export function merged<T extends { key: string; points: number }>(charges: readonly T[]): T[] {
  const byKey = new Map<string, T>();
  for (const c of charges) {
    const seen = byKey.get(c.key);
    byKey.set(c.key, seen ? { ...seen, points: seen.points + c.points } : { ...c });
  }
  return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * Charges several counters in ONE statement, with rate-limiter-flexible's own upsert rule (a
 * counter whose window has ended starts again with a new window), so limiters that read or
 * reward these rows later agree with it. Returns each counter's state by key. A counter over
 * its limit is still charged, as the library's `consume` does; see {@link refundCounters}.
 */
export async function chargeCounters(
  store: Store,
  charges: readonly CounterCharge[],
  now = Date.now(),
): Promise<Map<string, CounterState>> {
  const rows = merged(charges);
  const out = new Map<string, CounterState>();
  if (rows.length === 0) return out;
  const values: unknown[] = [];
  const tuples = rows.map((c) => {
    values.push(c.key, c.points, now + c.durationSec * 1000);
    const n = values.length;
    return `($${n - 2}, $${n - 1}, $${n})`;
  });
  values.push(now);
  const t = RATE_LIMITS_TABLE;
  const res = await storeClient(store.db).query({
    text: `insert into ${t} (key, points, expire) values ${tuples.join(', ')}
      on conflict (key) do update set
        points = case when ${t}.expire <= $${values.length} then excluded.points else ${t}.points + excluded.points end,
        expire = case when ${t}.expire <= $${values.length} then excluded.expire else ${t}.expire end
      returning key, points, expire`,
    values,
  });
  for (const row of res.rows) {
    const expire = row.expire as number | null;
    out.set(row.key as string, {
      consumed: row.points as number,
      msBeforeNext: expire === null ? -1 : Math.max(expire - now, 0),
    });
  }
  return out;
}

/**
 * Gives back points charged by {@link chargeCounters} in one statement; a counter whose window
 * has ended since is left alone (its new window owes nothing).
 */
export async function refundCounters(
  store: Store,
  charges: readonly CounterCharge[],
  now = Date.now(),
): Promise<void> {
  const rows = merged(charges);
  if (rows.length === 0) return;
  const values: unknown[] = [];
  const tuples = rows.map((c) => {
    values.push(c.key, c.points);
    return `($${values.length - 1}::varchar, $${values.length}::integer)`;
  });
  values.push(now);
  await storeClient(store.db).query({
    text: `update ${RATE_LIMITS_TABLE} as r set points = r.points - v.points
      from (values ${tuples.join(', ')}) as v (key, points)
      where r.key = v.key and (r.expire is null or r.expire > $${values.length})`,
    values,
  });
}

/** A lease on one of `slots` rows `<prefix>:<i>`, held by `token` until `leaseMs` from now. */
export interface LeaseRequest {
  prefix: string;
  slots: number;
  token: number;
  leaseMs: number;
}

/**
 * Takes one free lease row (none yet, or expired) of the request's slots in one statement and
 * answers its key, or undefined when every slot is held. Two processes racing for one row: the
 * upsert's condition is re-checked on the row the other just wrote, so only one gets it.
 */
export async function takeLease(
  store: Store,
  req: LeaseRequest,
  now = Date.now(),
): Promise<string | undefined> {
  const values: unknown[] = [req.token, now + req.leaseMs, now];
  const keys = Array.from({ length: req.slots }, (_, i) => {
    values.push(`${req.prefix}:${i}`);
    return `($${values.length}::varchar)`;
  });
  const t = RATE_LIMITS_TABLE;
  const res = await storeClient(store.db).query({
    text: `with candidates (key) as (values ${keys.join(', ')}),
      free as (
        select c.key from candidates c left join ${t} r on r.key = c.key
        where r.key is null or r.expire <= $3
        order by random() limit 1
      )
      insert into ${t} (key, points, expire) select key, $1, $2 from free
      on conflict (key) do update set points = excluded.points, expire = excluded.expire
        where ${t}.expire <= $3
      returning key`,
    values,
  });
  return res.rows[0]?.key as string | undefined;
}

/** Extends a lease its holder still holds; answers false when it expired and was taken since. */
export async function renewLease(
  store: Store,
  lease: { key: string; token: number; leaseMs: number },
  now = Date.now(),
): Promise<boolean> {
  const res = await store.db
    .updateTable('rate_limits')
    .set({ expire: now + lease.leaseMs })
    .where('key', '=', lease.key)
    .where('points', '=', lease.token)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Gives a lease back (only while `token` still holds it). */
export async function releaseLease(store: Store, lease: { key: string; token: number }): Promise<void> {
  await store.db
    .deleteFrom('rate_limits')
    .where('key', '=', lease.key)
    .where('points', '=', lease.token)
    .execute();
}

/** Closes a gate row until `untilMs` (epoch ms); a later close only ever extends it. */
export async function closeGate(store: Store, key: string, untilMs: number): Promise<void> {
  await storeClient(store.db).query({
    text: `insert into ${RATE_LIMITS_TABLE} (key, points, expire) values ($1, 0, $2)
      on conflict (key) do update set expire = greatest(${RATE_LIMITS_TABLE}.expire, excluded.expire)`,
    values: [key, untilMs],
  });
}

/** When a gate row opens (epoch ms); 0 when it was never closed. */
export async function gateOpensAt(store: Store, key: string): Promise<number> {
  const row = await store.db
    .selectFrom('rate_limits')
    .select('expire')
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.expire === null || row?.expire === undefined ? 0 : Number(row.expire);
}
