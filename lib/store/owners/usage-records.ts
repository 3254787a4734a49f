/**
 * The owner of `usage_records`: one row per accepted authenticated skill call, saying who
 * called (owner and key), who pays (the caller, or the team named by `team_id`), which skill,
 * how many request items and credits, and whether the call was queued. No query or result.
 */
import { randomBytes } from 'node:crypto';
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
  created_at: Date | string;
};

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
    created_at: new Date(row.created_at).toISOString(),
  };
}

export class UsageRecords {
  constructor(private readonly store: Store) {}

  async record(usage: NewUsage): Promise<UsageRecord> {
    const row = await this.store.db
      .insertInto('usage_records')
      .values({
        id: `use_${randomBytes(10).toString('hex')}`,
        task_id: usage.taskId,
        owner_id: usage.ownerId,
        key_id: usage.keyId,
        team_id: usage.payer.type === 'team' ? usage.payer.id : null,
        billed_to: `${usage.payer.type}:${usage.payer.id}`,
        skill: usage.skill,
        request_items: usage.requestItems,
        credits: usage.credits,
        queued: usage.queued,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  /** Records billed to `payer` (only those made with `keyId` when given), newest first. */
  async list(payer: Payer, opts: { limit: number; before?: Date | undefined; keyId?: string | undefined }) {
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

  /** The record of one task, when the caller (`ownerId`) made it. */
  async forTask(taskId: string, ownerId: string): Promise<UsageRecord | undefined> {
    const row = await this.store.db
      .selectFrom('usage_records')
      .selectAll()
      .where('task_id', '=', taskId)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    return row && toRecord(row);
  }
}
