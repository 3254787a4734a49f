import { type Kysely, type Migration, sql } from 'kysely';

/**
 * `power_design_cache`: power-design search results keyed by the SHA-256 of the normalised
 * requirement payload, with an expiry. Public engineering data from the
 * upstream, not user text: stored in the clear.
 */
export const m0005PowerCache: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      create table power_design_cache (
        payload_key text primary key,
        solutions text not null,
        expires_at timestamptz not null,
        created_at timestamptz not null default now()
      )`.execute(db);
    await sql`create index power_design_cache_expires on power_design_cache (expires_at)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table power_design_cache`.execute(db);
  },
};
