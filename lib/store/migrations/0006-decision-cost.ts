/**
 * Decision-helper usage on usage records: the estimated input tokens of the decision
 * requests a record paid for, and their price (0.042 USD per million input tokens, no output
 * charge). A workflow `decide` step gets its own record (skill `workflow.decide`, no key).
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const m0006DecisionCost: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table usage_records add column decision_input_tokens integer not null default 0`.execute(
      db,
    );
    await sql`alter table usage_records add column decision_cost_usd numeric not null default 0`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`alter table usage_records drop column if exists decision_cost_usd`.execute(db);
    await sql`alter table usage_records drop column if exists decision_input_tokens`.execute(db);
  },
};
