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

/** One sealed cell as read for re-encryption. */
interface Cell {
  context: SealContext;
  value: string;
  /** Writes the new value if the cell still holds `value`; true when written. */
  write(next: string): Promise<boolean>;
}

/** Counts per `<table>.<column>`. */
export type ReencryptReport = Record<string, { resealed: number; current: number }>;

/**
 * Every sealed column with the SQL that names its cells: `key` orders and identifies a row
 * (keyset paging), `row` and `owner` are the parts of its seal context (lib/store/sealed-columns.ts
 * builds the same contexts). The fragments are constants, never input.
 */
const SEALED_COLUMNS = [
  // A chat is (owner, chat id); a chat id holds no '/', so the key is unique.
  {
    table: 'chats',
    column: 'webhook_url_sealed',
    key: "owner_id || '/' || chat_id",
    row: 'chat_id',
    owner: 'owner_id',
  },
  { table: 'chat_messages', column: 'content_sealed', key: 'id', row: 'id', owner: 'owner_id' },
  { table: 'embeds', column: 'content_sealed', key: 'id', row: 'id', owner: 'owner_id' },
  { table: 'workspace_results', column: 'payload_sealed', key: 'id', row: 'root_id', owner: 'owner_id' },
  { table: 'idempotency_keys', column: 'answer_sealed', key: 'key_hash', row: 'key_hash', owner: 'owner_id' },
  ...(['secret_sealed', 'previous_secret_sealed', 'children_sealed'] as const).map((column) => ({
    table: 'webhooks',
    column,
    key: 'hook_id',
    row: 'hook_id',
    owner: 'owner_id',
  })),
  ...(['source_sealed', 'plan_sealed'] as const).map((column) => ({
    table: 'definition_versions',
    column,
    key: "definition_id || '/' || cast(version as text)",
    row: "definition_id || '/' || cast(version as text)",
    owner: '(select owner_id from definitions d where d.id = definition_id)',
  })),
] as const;

/** Rows read per query: memory stays bounded however large the store is. */
const PAGE_SIZE = 500;

async function* cells(store: Store): AsyncGenerator<Cell> {
  for (const spec of SEALED_COLUMNS) {
    const [table, column, key] = [sql.table(spec.table), sql.ref(spec.column), sql.raw(spec.key)];
    let after = '';
    for (;;) {
      const page = await sql<{ key: string; row: string; owner: string; value: string }>`
        select ${key} as key, ${sql.raw(spec.row)} as row, ${sql.raw(spec.owner)} as owner,
               ${column} as value
        from ${table}
        where ${column} is not null and ${key} > ${after}
        order by ${key} limit ${PAGE_SIZE}`.execute(store.db);
      for (const r of page.rows) {
        yield {
          context: { table: spec.table, column: spec.column, row: r.row, owner: r.owner },
          value: r.value,
          write: async (next) => {
            const res = await sql`
              update ${table} set ${column} = ${next}
              where ${key} = ${r.key} and ${column} = ${r.value}`.execute(store.db);
            return Number(res.numAffectedRows ?? 0) === 1;
          },
        };
      }
      if (page.rows.length < PAGE_SIZE) break;
      after = page.rows[page.rows.length - 1]!.key;
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

/** How many values are still in the old format; one count per column, no decryption. */
export async function countLegacySealed(store: Store): Promise<number> {
  let n = 0;
  for (const { table, column } of SEALED_COLUMNS) {
    const row = await sql<{ n: string | number }>`
      select count(*) as n from ${sql.table(table)}
      where ${sql.ref(column)} is not null and ${sql.ref(column)} not like 'v2.%'`.execute(store.db);
    n += Number(row.rows[0]?.n ?? 0);
  }
  return n;
}
