/**
 * Re-seals every sealed store value under the active key, bound to its cell (table, column, row,
 * owner). Values in the old format (raw key, no context) are opened with the raw key and upgraded;
 * values already under the active key are left alone. Each update is conditional on the value
 * not having changed meanwhile, so it is safe while the service runs and safe to repeat.
 */
import { sql } from 'kysely';
import type { Keyring } from '../crypto/keyring.js';
import {
  isLegacySealed,
  openJson,
  openLegacyJson,
  sealedKeyId,
  sealJson,
  type SealContext,
} from '../crypto/sealed-value.js';
import type { Store } from './db.js';
import { sealedCell } from './sealed-columns.js';

/** One sealed cell as read for re-encryption. */
interface Cell {
  context: SealContext;
  value: string;
  /** Writes the new value if the cell still holds `value`; true when written. */
  write(next: string): Promise<boolean>;
}

/** Counts per `<table>.<column>`. */
export type ReencryptReport = Record<string, { resealed: number; current: number }>;

async function* cells(store: Store): AsyncGenerator<Cell> {
  const db = store.db;
  for (const r of await db
    .selectFrom('chats')
    .select(['chat_id', 'owner_id', 'webhook_url_sealed'])
    .execute()) {
    if (r.webhook_url_sealed === null) continue;
    const old = r.webhook_url_sealed;
    yield {
      context: sealedCell.chatWebhookUrl(r.chat_id, r.owner_id),
      value: old,
      write: async (next) =>
        Number(
          (
            await db
              .updateTable('chats')
              .set({ webhook_url_sealed: next })
              .where('chat_id', '=', r.chat_id)
              .where('webhook_url_sealed', '=', old)
              .executeTakeFirst()
          ).numUpdatedRows,
        ) === 1,
    };
  }
  for (const r of await db
    .selectFrom('chat_messages')
    .select(['id', 'owner_id', 'content_sealed'])
    .execute()) {
    yield {
      context: sealedCell.chatMessage(r.id, r.owner_id),
      value: r.content_sealed,
      write: async (next) =>
        Number(
          (
            await db
              .updateTable('chat_messages')
              .set({ content_sealed: next })
              .where('id', '=', r.id)
              .where('content_sealed', '=', r.content_sealed)
              .executeTakeFirst()
          ).numUpdatedRows,
        ) === 1,
    };
  }
  for (const r of await db.selectFrom('embeds').select(['id', 'owner_id', 'content_sealed']).execute()) {
    if (r.content_sealed === null) continue;
    const old = r.content_sealed;
    yield {
      context: sealedCell.embed(r.id, r.owner_id),
      value: old,
      write: async (next) =>
        Number(
          (
            await db
              .updateTable('embeds')
              .set({ content_sealed: next })
              .where('id', '=', r.id)
              .where('content_sealed', '=', old)
              .executeTakeFirst()
          ).numUpdatedRows,
        ) === 1,
    };
  }
  for (const r of await db
    .selectFrom('workspace_results')
    .select(['id', 'root_id', 'owner_id', 'payload_sealed'])
    .execute()) {
    yield {
      context: sealedCell.workspaceResult(r.root_id, r.owner_id),
      value: r.payload_sealed,
      write: async (next) =>
        Number(
          (
            await db
              .updateTable('workspace_results')
              .set({ payload_sealed: next })
              .where('id', '=', r.id)
              .where('payload_sealed', '=', r.payload_sealed)
              .executeTakeFirst()
          ).numUpdatedRows,
        ) === 1,
    };
  }
  const versions = await db
    .selectFrom('definition_versions')
    .innerJoin('definitions', 'definitions.id', 'definition_versions.definition_id')
    .select([
      'definition_versions.definition_id',
      'definition_versions.version',
      'definitions.owner_id',
      'definition_versions.source_sealed',
      'definition_versions.plan_sealed',
    ])
    .execute();
  for (const r of versions) {
    for (const column of ['source_sealed', 'plan_sealed'] as const) {
      const old = r[column];
      const context =
        column === 'source_sealed'
          ? sealedCell.definitionSource(r.definition_id, r.version, r.owner_id)
          : sealedCell.definitionPlan(r.definition_id, r.version, r.owner_id);
      yield {
        context,
        value: old,
        write: async (next) =>
          Number(
            (
              await db
                .updateTable('definition_versions')
                .set(column === 'source_sealed' ? { source_sealed: next } : { plan_sealed: next })
                .where('definition_id', '=', r.definition_id)
                .where('version', '=', r.version)
                .where(sql.ref(column), '=', old)
                .executeTakeFirst()
            ).numUpdatedRows,
          ) === 1,
      };
    }
  }
}

/**
 * Re-seals every value not yet sealed with the active key and its context. Throws (without
 * writing that value) when a value opens with no key in the ring: add the missing key and rerun.
 */
export async function reencryptStore(store: Store, keyring: Keyring): Promise<ReencryptReport> {
  const report: ReencryptReport = {};
  for await (const cell of cells(store)) {
    const name = `${cell.context.table}.${cell.context.column}`;
    const counts = (report[name] ??= { resealed: 0, current: 0 });
    const legacy = isLegacySealed(cell.value);
    if (!legacy && sealedKeyId(cell.value) === keyring.activeKeyId) {
      openJson(keyring, cell.value, cell.context); // proves it opens in its cell
      counts.current += 1;
      continue;
    }
    const value = legacy ? openLegacyJson(keyring, cell.value) : openJson(keyring, cell.value, cell.context);
    if (await cell.write(sealJson(keyring, value, cell.context))) counts.resealed += 1;
  }
  return report;
}

/** The sealed columns, for the format check at boot. */
const SEALED_COLUMNS = [
  ['chats', 'webhook_url_sealed'],
  ['chat_messages', 'content_sealed'],
  ['embeds', 'content_sealed'],
  ['workspace_results', 'payload_sealed'],
  ['definition_versions', 'source_sealed'],
  ['definition_versions', 'plan_sealed'],
] as const;

/** How many values are still in the old format; one count per column, no decryption. */
export async function countLegacySealed(store: Store): Promise<number> {
  let n = 0;
  for (const [table, column] of SEALED_COLUMNS) {
    const row = await sql<{ n: string | number }>`
      select count(*) as n from ${sql.table(table)}
      where ${sql.ref(column)} is not null and ${sql.ref(column)} not like 'v2.%'`.execute(store.db);
    n += Number(row.rows[0]?.n ?? 0);
  }
  return n;
}
