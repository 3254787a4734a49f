import { z } from 'zod';

/** Request items in a skill input (`requests.length`), at least one. */
export function requestItems(input: unknown): number {
  const requests = (input as { requests?: unknown } | null)?.requests;
  return Array.isArray(requests) && requests.length > 0 ? requests.length : 1;
}

/** The most request items one call carries: every skill takes 1 to 5 and runs them in parallel. */
export const MAX_REQUEST_ITEMS = 5;

/**
 * A skill input's `requests` list: 1 to {@link MAX_REQUEST_ITEMS} items, with the same refusals
 * for every skill ("At least one request is required.", "At most 5 requests are allowed.").
 */
export function requestList<T extends z.ZodType>(item: T, description: string) {
  return z
    .array(item)
    .min(1, 'At least one request is required.')
    .max(MAX_REQUEST_ITEMS, `At most ${MAX_REQUEST_ITEMS} requests are allowed.`)
    .describe(description);
}
