/** Request items in a skill input (`requests.length`), at least one. */
export function requestItems(input: unknown): number {
  const requests = (input as { requests?: unknown } | null)?.requests;
  return Array.isArray(requests) && requests.length > 0 ? requests.length : 1;
}
