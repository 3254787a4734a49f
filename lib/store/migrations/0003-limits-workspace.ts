import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Limiter counters and browser-encrypted workspace results.
 *
 * `rate_limits` is exactly the table rate-limiter-flexible's Postgres store expects (key,
 * points, expire in epoch ms); it holds per-tier request counters, provider counters and the
 * anonymous credit counters, whose keys carry only keyed hashes of guest ids and IPs.
 * `workspace_results` keeps the opaque ciphertext a browser posted, sealed once more at rest.
 */
export const m0003LimitsWorkspace: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      create table rate_limits (
        key varchar(255) primary key,
        points integer not null default 0,
        expire bigint
      )`.execute(db);
    await sql`create index rate_limits_expire on rate_limits (expire)`.execute(db);
    await sql`
      create table workspace_results (
        id text primary key,
        owner_id text not null,
        root_id text not null,
        child_count integer not null,
        payload_sealed text not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (owner_id, root_id)
      )`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table if exists workspace_results`.execute(db);
    await sql`drop table if exists rate_limits`.execute(db);
  },
};
