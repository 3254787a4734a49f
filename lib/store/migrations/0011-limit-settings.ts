import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The limit settings every process sharing the store enforces: one row per limit variable whose
 * value is compared against a shared counter, recorded by the first process that starts (or by
 * `npm run limits:apply`). A process whose environment differs refuses to start, so replicas
 * never enforce different ceilings on one counter. Limit numbers only, never secrets.
 */
export const m0011LimitSettings: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      create table limit_settings (
        name text primary key,
        value text not null,
        recorded_at timestamptz not null default now()
      )`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table limit_settings`.execute(db);
  },
};
