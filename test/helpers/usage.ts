import type { Store } from '../../lib/store/db.js';

/** The usage records of one task (or call) id, or of one owner: billed items and credits. */
export async function usageRows(store: Store, by: { taskId: string } | { ownerId: string }) {
  const query = store.db.selectFrom('usage_records').select(['task_id', 'credits', 'request_items']);
  const rows = await (
    'taskId' in by ? query.where('task_id', '=', by.taskId) : query.where('owner_id', '=', by.ownerId)
  ).execute();
  return rows.map((r) => ({ ...r, credits: Number(r.credits) }));
}
