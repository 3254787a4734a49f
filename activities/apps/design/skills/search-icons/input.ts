/**
 * Input of `design.search_icons`: `{ requests: [1-5] }`,
 * each a query with a limit, optional collection include/exclude lists, a license policy and
 * optional relevance criteria. Unknown fields are rejected.
 */
import { z } from 'zod';
import { ICON_PART } from '../../upstream/provider.js';
import { LICENSE_POLICIES } from '../../upstream/licenses.js';
import { requestList } from '../../../../registry/request-items.js';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 50;
export const MAX_QUERY_LENGTH = 100;
export const MAX_COLLECTIONS = 20;
export const MAX_CRITERIA_LENGTH = 500;

const limitRule = `limit must be an integer from 1 to ${MAX_LIMIT}.`;

const CollectionList = z
  .array(z.string().regex(ICON_PART, 'must be a collection prefix such as "mdi" or "simple-icons"'))
  .max(MAX_COLLECTIONS, `At most ${MAX_COLLECTIONS} collections are allowed.`)
  .overwrite((list) => [...new Set(list)]);

/** One icon search. */
export const IconSearchRequestSchema = z
  .strictObject({
    query: z
      .string()
      .trim()
      .min(1, 'The query is empty.')
      .max(MAX_QUERY_LENGTH, `The query is longer than ${MAX_QUERY_LENGTH} characters.`)
      .describe('Words to look for in icon names, aliases and collection categories.'),
    limit: z
      .number(limitRule)
      .int(limitRule)
      .min(1, limitRule)
      .max(MAX_LIMIT, limitRule)
      .default(DEFAULT_LIMIT)
      .describe(`How many icons to return. Default ${DEFAULT_LIMIT}, maximum ${MAX_LIMIT}.`),
    collections: CollectionList.optional().describe('Only search these collections (prefixes).'),
    exclude_collections: CollectionList.optional().describe('Never return icons of these collections.'),
    license_policy: z
      .enum(LICENSE_POLICIES, `license_policy must be one of ${LICENSE_POLICIES.join(', ')}.`)
      .default('permissive')
      .describe(
        'permissive (default): MIT, ISC, Apache-2.0, BSD-*, CC0, CC0-1.0, Unlicense, OFL-1.1 only; all: every license, for approved client flows (needs the icons:all-licenses scope).',
      ),
    relevance_criteria: z
      .string()
      .max(MAX_CRITERIA_LENGTH, `relevance_criteria is longer than ${MAX_CRITERIA_LENGTH} characters.`)
      .optional()
      .describe('Free text; a non-blank value triggers one relevance decision that reorders the candidates.'),
  })
  .describe('One icon search.');

export type IconSearchRequest = z.output<typeof IconSearchRequestSchema>;

export const INPUT_DEFAULTS = {
  limit: DEFAULT_LIMIT,
  license_policy: 'permissive',
} as const satisfies Partial<IconSearchRequest>;

export const SearchIconsInputSchema = z
  .strictObject({
    requests: requestList(IconSearchRequestSchema, 'One to five icon searches; the output keeps this order.'),
  })
  .describe('Input of design.search_icons.');

export type SearchIconsInput = z.output<typeof SearchIconsInputSchema>;
