/**
 * The event index: a definition's event trigger is found by `definitions.event_key`, a waiting
 * `wait_for_event` step by its row in `event_waits`. Both hold keyed hashes of event names and
 * match values (lib/events/event-index-keys.ts), never the names or values themselves; a wait's
 * match field names are kept as they are, since the API must read them from an event's data.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const m0009EventIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table definitions add column event_key text`.execute(db);
    await sql`create index definitions_owner_event on definitions (owner_id, event_key)`.execute(db);
    await sql`
      create table event_waits (
        id text primary key,
        owner_id text not null,
        event_key text not null,
        match_fields text not null,
        match_hash text not null,
        workflow_id text not null,
        step_id text not null,
        expires_at timestamptz not null,
        created_at timestamptz not null default now()
      )`.execute(db);
    await sql`create index event_waits_lookup on event_waits (owner_id, event_key, match_fields, match_hash)`.execute(
      db,
    );
    await sql`create index event_waits_expiry on event_waits (expires_at)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table if exists event_waits`.execute(db);
    await sql`drop index if exists definitions_owner_event`.execute(db);
    await sql`alter table definitions drop column if exists event_key`.execute(db);
  },
};
