/**
 * The owner of `usage_records`: one row per accepted authenticated skill call, saying who
 * called (owner and key), who pays (the caller, or the team named by `team_id`), which skill,
 * how many request items and credits, and whether the call was queued. No query or result.
 *
 * Records of inline calls are written off the request path ({@link UsageRecords.defer}): queued
 * in memory with the call's time and written together in one INSERT at most
 * {@link USAGE_FLUSH_MS} later, and at once before any read of this process ({@link
 * UsageRecords.list}, {@link UsageRecords.forTask}) and on close. A row the store refuses stays
 * queued for the next flush. What a crash (not a clean shutdown) can lose: the rows of the last
 * {@link USAGE_FLUSH_MS} (or of a store outage that lasted until the crash).
 *
 * Each record also holds the decision-helper tokens and cost it paid for (a workflow `decide`
 * step gets its own record). A task refused by our own provider limit loses its record: it is
 * not billed.
 */
import { createHash, hash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { UsageRecord } from '../../usage/usage-record.js';
import type { Store } from '../db.js';

/** Who pays for a call. */
export type Payer = { type: 'owner'; id: string } | { type: 'team'; id: string };

export interface NewUsage {
  taskId: string;
  ownerId: string;
  keyId: string;
  payer: Payer;
  skill: string;
  requestItems: number;
  credits: number;
  queued: boolean;
  /** Decision-helper usage of the call (relevance ranking); none when absent. */
  decision?: { input_tokens: number; cost_usd: number } | undefined;
}

type Row = {
  id: string;
  task_id: string;
  owner_id: string;
  key_id: string;
  billed_to: string;
  skill: string;
  request_items: number;
  credits: string | number;
  queued: boolean;
  decision_input_tokens: number;
  decision_cost_usd: string | number;
  created_at: Date | string;
};

/** Skill name of the record a workflow `decide` step's decision is charged on. */
export const DECIDE_STEP_SKILL = 'workflow.decide';

function toRecord(row: Row): UsageRecord {
  const [type, ...rest] = row.billed_to.split(':');
  return {
    id: row.id,
    task_id: row.task_id,
    skill: row.skill,
    key_id: row.key_id,
    owner_id: row.owner_id,
    billed_to: { type: type === 'team' ? 'team' : 'owner', id: rest.join(':') },
    request_items: row.request_items,
    credits: Number(row.credits),
    queued: row.queued,
    decision: { input_tokens: row.decision_input_tokens, cost_usd: Number(row.decision_cost_usd) },
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** The longest a deferred record waits in memory before its batch is written. */
export const USAGE_FLUSH_MS = 50;

/**
 * Records one process may hold unwritten (a store outage). At the bound, {@link
 * UsageRecords.defer} waits for a write (and fails with it), so memory stays bounded and a call
 * is never answered while its record cannot be kept.
 */
export const USAGE_MAX_PENDING = 10_000;

/** One record as inserted, stamped with the time of the call. */
/**
 * The id of a call's acceptance record: one per call or task id, so a retried acceptance of the
 * same call (a request retried with its Idempotency-Key after its API died) bills it once.
 */
function acceptanceIdOf(taskId: string): string {
  return `use_${hash('sha256', `accept\n${taskId}`, 'hex').slice(0, 20)}`;
}

function toRow(usage: NewUsage, at: Date) {
  return {
    id: acceptanceIdOf(usage.taskId),
    task_id: usage.taskId,
    owner_id: usage.ownerId,
    key_id: usage.keyId,
    team_id: usage.payer.type === 'team' ? usage.payer.id : null,
    billed_to: `${usage.payer.type}:${usage.payer.id}`,
    skill: usage.skill,
    request_items: usage.requestItems,
    credits: usage.credits,
    queued: usage.queued,
    decision_input_tokens: usage.decision?.input_tokens ?? 0,
    decision_cost_usd: usage.decision?.cost_usd ?? 0,
    created_at: at,
  };
}

type UsageRow = ReturnType<typeof toRow>;

/**
 * Inserts rows in one statement with one array parameter per column (`unnest`), which the store
 * parses faster than one parameter per value (13 per row).
 */
async function insertBatch(store: Store, rows: readonly UsageRow[]): Promise<void> {
  const col = <K extends keyof UsageRow>(k: K) => rows.map((r) => r[k]);
  await sql`
    insert into usage_records (id, task_id, owner_id, key_id, team_id, billed_to, skill,
      request_items, credits, queued, decision_input_tokens, decision_cost_usd, created_at)
    select * from unnest(${col('id')}::text[], ${col('task_id')}::text[], ${col('owner_id')}::text[],
      ${col('key_id')}::text[], ${col('team_id')}::text[], ${col('billed_to')}::text[],
      ${col('skill')}::text[], ${col('request_items')}::integer[], ${col('credits')}::numeric[],
      ${col('queued')}::boolean[], ${col('decision_input_tokens')}::integer[],
      ${col('decision_cost_usd')}::numeric[], ${col('created_at')}::timestamptz[])
    on conflict (id) do nothing`.execute(store.db);
}

export class UsageRecords {
  /** Queued records, made into rows when their batch is written (off the request path). */
  private pending: { usage: NewUsage; at: Date }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    /** Told about a failed batch write (its rows stay queued for the next flush). */
    private readonly onWriteError: (err: unknown) => void = () => undefined,
    private readonly maxPending: number = USAGE_MAX_PENDING,
  ) {}

  /** Writes one record now (unless the call's record exists) and returns the stored record. */
  async record(usage: NewUsage): Promise<UsageRecord> {
    const row = toRow(usage, new Date());
    await this.store.db
      .insertInto('usage_records')
      .values(row)
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    const stored = await this.store.db
      .selectFrom('usage_records')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    return toRecord(stored);
  }

  /**
   * Records one workflow `decide` step's decision usage for its owner: a record of skill
   * {@link DECIDE_STEP_SKILL} with no key, no request items and no credits. With a `requestKey`
   * (the step's activity and the request's place in it) the record is billed once: a retried
   * attempt of the step (after a worker crash, say) replaces the figures of the same request
   * instead of adding a second record.
   */
  async recordDecision(args: {
    taskId: string;
    ownerId: string;
    inputTokens: number;
    costUsd: number;
    requestKey?: string;
  }): Promise<UsageRecord> {
    const id = args.requestKey
      ? `use_${createHash('sha256').update(`${args.taskId}\n${args.requestKey}`).digest('hex').slice(0, 20)}`
      : `use_${randomBytes(10).toString('hex')}`;
    const row = await this.store.db
      .insertInto('usage_records')
      .values({
        id,
        task_id: args.taskId,
        owner_id: args.ownerId,
        key_id: '',
        team_id: null,
        billed_to: `owner:${args.ownerId}`,
        skill: DECIDE_STEP_SKILL,
        request_items: 0,
        credits: 0,
        queued: false,
        decision_input_tokens: args.inputTokens,
        decision_cost_usd: args.costUsd,
      })
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet({ decision_input_tokens: args.inputTokens, decision_cost_usd: args.costUsd }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  /**
   * Sets the decision usage of the record of task `taskId` (a skill call that ran as a task,
   * recorded at acceptance) in one UPDATE; `workflow.decide` records are never touched. It sets
   * rather than adds: the caller passes the usage of one whole activity attempt, so a retried
   * attempt replaces the earlier figure instead of counting it twice. Resolves to whether a
   * record was updated (false while the acceptance record is not written yet).
   */
  async setDecisionUsage(
    taskId: string,
    usage: { input_tokens: number; cost_usd: number },
  ): Promise<boolean> {
    const res = await this.store.db
      .updateTable('usage_records')
      .set({ decision_input_tokens: usage.input_tokens, decision_cost_usd: usage.cost_usd })
      .where('task_id', '=', taskId)
      .where('skill', '!=', DECIDE_STEP_SKILL)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /**
   * Removes the record of task `taskId` (a skill call that ran as a task, recorded at acceptance)
   * when our own provider limit refused the call: such a call is not billed. `workflow.decide`
   * records are never touched. Resolves to whether a record was removed (false while the
   * acceptance record is not written yet).
   */
  async dropTaskRecord(taskId: string): Promise<boolean> {
    const res = await this.store.db
      .deleteFrom('usage_records')
      .where('task_id', '=', taskId)
      .where('skill', '!=', DECIDE_STEP_SKILL)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /**
   * Queues one record, stamped now, for the next batch (written within {@link USAGE_FLUSH_MS});
   * resolves at once. With `maxPending` records unwritten it writes them first, and rejects when
   * the store refuses (the caller's request then fails instead of losing the record).
   */
  async defer(usage: NewUsage): Promise<void> {
    this.pending.push({ usage, at: new Date() });
    if (this.pending.length >= this.maxPending) return this.flush();
    this.schedule(USAGE_FLUSH_MS);
  }

  /** A flush in `ms` (unless one is due sooner); after a failed one, another in a second. */
  private schedule(ms: number): void {
    this.timer ??= setTimeout(
      () =>
        void this.flush().catch((err: unknown) => {
          this.onWriteError(err);
          this.schedule(1000);
        }),
      ms,
    );
  }

  /**
   * Writes every queued record in one INSERT (row by row when that fails); rejects when a row
   * could not be written, which stays queued for the next flush.
   */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const run = this.writing.then(async () => {
      const queued = this.pending;
      if (queued.length === 0) return;
      this.pending = [];
      try {
        await insertBatch(
          this.store,
          queued.map((q) => toRow(q.usage, q.at)),
        );
      } catch (err) {
        // One by one, so a record the store refuses cannot hold the others back; what still
        // fails stays queued for the next flush.
        const failed: typeof queued = [];
        for (const q of queued)
          await insertBatch(this.store, [toRow(q.usage, q.at)]).catch(() => failed.push(q));
        this.pending = [...failed, ...this.pending];
        if (failed.length > 0) throw err;
      }
    });
    this.writing = run.catch(() => undefined);
    return run;
  }

  /** Flushes what is queued (call before the store closes). */
  close(): Promise<void> {
    return this.flush();
  }

  /** Records billed to `payer` (only those made with `keyId` when given), newest first. */
  async list(payer: Payer, opts: { limit: number; before?: Date | undefined; keyId?: string | undefined }) {
    await this.flush();
    let q = this.store.db
      .selectFrom('usage_records')
      .selectAll()
      .where('billed_to', '=', `${payer.type}:${payer.id}`)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(opts.limit);
    if (opts.before) q = q.where('created_at', '<', opts.before);
    if (opts.keyId) q = q.where('key_id', '=', opts.keyId);
    return (await q.execute()).map(toRecord);
  }

  /** The team the owner's call of a task was billed to (team execution), if any. */
  async teamOfTask(taskId: string, ownerId: string): Promise<string | undefined> {
    await this.flush();
    const row = await this.store.db
      .selectFrom('usage_records')
      .select('team_id')
      .where('task_id', '=', taskId)
      .where('owner_id', '=', ownerId)
      .where('team_id', 'is not', null)
      .executeTakeFirst();
    return row?.team_id ?? undefined;
  }

  /** The record of one task, when the caller (`ownerId`) made it. */
  async forTask(taskId: string, ownerId: string): Promise<UsageRecord | undefined> {
    await this.flush();
    const row = await this.store.db
      .selectFrom('usage_records')
      .selectAll()
      .where('task_id', '=', taskId)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    return row && toRecord(row);
  }
}
