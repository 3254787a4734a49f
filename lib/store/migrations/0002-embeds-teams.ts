import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Embeds (results of long-running skill calls, sealed) and teams (for `team_id` spending
 * checks on skill calls).
 */
export const m0002EmbedsTeams: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      create table embeds (
        id text primary key,
        owner_id text not null,
        task_id text not null,
        skill text not null,
        status text not null default 'pending',
        content_sealed text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`.execute(db);
    await sql`create index embeds_task on embeds (task_id)`.execute(db);
    await sql`
      create table teams (
        id text primary key,
        name text not null,
        created_at timestamptz not null default now()
      )`.execute(db);
    await sql`
      create table team_members (
        team_id text not null references teams(id) on delete cascade,
        owner_id text not null,
        role text not null check (role in ('owner', 'admin', 'member', 'viewer')),
        can_spend boolean not null default false,
        primary key (team_id, owner_id)
      )`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table if exists team_members`.execute(db);
    await sql`drop table if exists teams`.execute(db);
    await sql`drop table if exists embeds`.execute(db);
  },
};
