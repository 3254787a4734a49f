import { type Kysely, type Migration, sql } from 'kysely';

/**
 * `idempotency_keys.task_seed`: a random id drawn by a claim, from which a route whose work is a
 * started task derives that task's id. A claim that takes over the unanswered claim of the same
 * request (its process died or its answer could not be stored) keeps the seed, so the retry
 * finds the task the first request started instead of starting another.
 */
export const m0012IdempotencyTaskSeed: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table idempotency_keys add column task_seed text`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`alter table idempotency_keys drop column task_seed`.execute(db);
  },
};
