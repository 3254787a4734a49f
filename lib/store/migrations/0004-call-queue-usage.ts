import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The queue of authenticated skill calls that wait for a limit to reset, and the usage records.
 *
 * `skill_call_queue` holds one row per queued call until its run time (ids and times only), so
 * the queue depth per API key can be bounded across API replicas. `usage_records` holds one row
 * per accepted authenticated skill call: who called, who pays (the caller or a team), which
 * skill, how many request items and credits. Neither holds any query or result.
 */
export const m0004CallQueueUsage: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      create table skill_call_queue (
        task_id text primary key,
        key_id text not null,
        owner_id text not null,
        run_at timestamptz not null,
        created_at timestamptz not null default now()
      )`.execute(db);
    await sql`create index skill_call_queue_key on skill_call_queue (key_id, run_at)`.execute(db);
    await sql`
      create table usage_records (
        id text primary key,
        task_id text not null,
        owner_id text not null,
        key_id text not null,
        team_id text,
        billed_to text not null,
        skill text not null,
        request_items integer not null,
        credits numeric not null,
        queued boolean not null default false,
        created_at timestamptz not null default now()
      )`.execute(db);
    await sql`create index usage_records_billed_to on usage_records (billed_to, created_at)`.execute(db);
    await sql`create index usage_records_owner on usage_records (owner_id, created_at)`.execute(db);
    await sql`create index usage_records_task on usage_records (task_id)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table if exists usage_records`.execute(db);
    await sql`drop table if exists skill_call_queue`.execute(db);
  },
};
