/**
 * How an event's data field is compared with a `wait_for_event` match value: a string as it is,
 * a finite number or a boolean by its JSON text (`42`, `true`); anything else (an object, a
 * list, null, a missing field) matches nothing. Pure, so the workflow and the API's event index
 * compare alike.
 */
export function matchText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isFinite(value)) return JSON.stringify(value);
  return undefined;
}

/** Whether `data` has every field of `match` with the same text. */
export function eventMatches(match: Readonly<Record<string, string>>, data: unknown): boolean {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return Object.keys(match).length === 0;
  const record = data as Record<string, unknown>;
  return Object.entries(match).every(([k, v]) => Object.hasOwn(record, k) && matchText(record[k]) === v);
}
