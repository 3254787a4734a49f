/**
 * Input of `hosting.search_domains`: the `{ requests: [group, ...] }` envelope.
 * Every rule that can be checked locally is checked here, so one invalid group fails the whole
 * call before any upstream request (see README.md, "Validation").
 */
import countries from 'i18n-iso-countries';
import { z } from 'zod';
import { invalidParameter } from '../../../../../lib/errors/skillflow-error.js';
import { requestList } from '../../../../registry/request-items.js';
import { checkLabel, classifyQuery, type QueryTarget } from './names.js';
import { warning, type Warning } from './warnings.js';

/** Exact lookup candidates per group. */
export const MAX_EXACT_LOOKUPS = 20;
/** Each requested extension is one exact lookup, so `tlds` is capped by the lookup limit. */
export const MAX_TLDS = MAX_EXACT_LOOKUPS;
export const DEFAULT_MAX_RESULTS = 10;
export const MAX_RESULTS_LIMIT = 20;
export const MAX_QUERY_LENGTH = 300;
export const MAX_CRITERIA_LENGTH = 500;
export const MAX_ID_LENGTH = 100;
export const DEFAULT_COUNTRY = 'DE';
/** The spec leaves the default open; EUR matches the default tax country DE. */
export const DEFAULT_CURRENCY = 'EUR';
export const CURRENCIES = ['EUR', 'USD'] as const;
export const AVAILABILITY_POLICIES = ['prefer_available', 'available_only', 'all'] as const;

export type Currency = (typeof CURRENCIES)[number];
export type AvailabilityPolicy = (typeof AVAILABILITY_POLICIES)[number];

function normaliseTld(raw: string): string {
  const bare = raw.trim().replace(/^\./u, '');
  const label = checkLabel(bare);
  return label.ok ? label.ascii : bare.toLowerCase();
}

/** Longest extension as sent, spaces and a leading dot included (a label is at most 63 octets). */
export const MAX_TLD_CHARS = 100;
/**
 * The form of an extension as sent: one label (no dot or space inside) after an optional leading
 * dot, with surrounding spaces. Stated in the document; the IDNA rules below decide the rest.
 */
const TLD_PATTERN = /^\s*\.?[^\s.]+\s*$/;

const TldSchema = z
  .string()
  .max(MAX_TLD_CHARS, { message: `An extension is at most ${MAX_TLD_CHARS} characters.`, abort: true })
  .overwrite(normaliseTld)
  .superRefine((value, ctx) => {
    const label = checkLabel(value);
    if (!label.ok) ctx.addIssue({ code: 'custom', message: `Not a valid extension: ${label.reason}.` });
    else if (/^[0-9]+$/u.test(value))
      ctx.addIssue({ code: 'custom', message: 'An extension cannot be all digits.' });
  })
  .meta({
    minLength: 1,
    maxLength: MAX_TLD_CHARS,
    pattern: TLD_PATTERN.source,
    description: 'An extension such as "com" (a leading dot is stripped; IDN extensions become ASCII).',
  });

const QuerySchema = z
  .string()
  .trim()
  .min(1, 'The query is empty.')
  .max(MAX_QUERY_LENGTH, `The query is longer than ${MAX_QUERY_LENGTH} characters.`)
  .superRefine((value, ctx) => {
    // Length issues are already reported; classifying as well would repeat them.
    if (value.length === 0 || value.length > MAX_QUERY_LENGTH) return;
    const checked = classifyQuery(value);
    if (!checked.ok) ctx.addIssue({ code: 'custom', message: checked.message });
  })
  .describe(
    'A keyword or a full domain name (FQDN). An FQDN triggers an exact lookup; a brief is reduced to a keyword.',
  );

/** One domain search group. Unknown fields are rejected. */
export const SearchGroupSchema = z
  .strictObject({
    id: z
      .string()
      .min(1)
      .max(MAX_ID_LENGTH)
      .optional()
      .describe('Caller identifier, echoed back in the output.'),
    query: QuerySchema,
    tlds: z
      .array(TldSchema)
      .max(MAX_TLDS, `At most ${MAX_TLDS} extensions are allowed.`)
      .overwrite((tlds) => [...new Set(tlds)])
      .optional()
      .describe('Extensions to search and enforce on results; normalised and deduplicated.'),
    country: z
      .string()
      .trim()
      .toUpperCase()
      .refine((c) => /^[A-Z]{2}$/u.test(c) && countries.isValid(c), 'Not an ISO 3166-1 alpha-2 country code.')
      .default(DEFAULT_COUNTRY)
      .describe('Tax country, ISO 3166-1 alpha-2 (case-insensitive). Default DE, returned explicitly.'),
    currency: z
      .enum(CURRENCIES, `The currency must be one of ${CURRENCIES.join(', ')}.`)
      .default(DEFAULT_CURRENCY)
      .describe('Quote currency. Default EUR.'),
    max_results: z
      .number(`max_results must be an integer from 1 to ${MAX_RESULTS_LIMIT}.`)
      .int(`max_results must be an integer from 1 to ${MAX_RESULTS_LIMIT}.`)
      .min(1, `max_results must be an integer from 1 to ${MAX_RESULTS_LIMIT}.`)
      .max(MAX_RESULTS_LIMIT, `max_results must be an integer from 1 to ${MAX_RESULTS_LIMIT}.`)
      .default(DEFAULT_MAX_RESULTS)
      .describe('How many selected results to return. Default 10, maximum 20.'),
    availability: z
      .enum(AVAILABILITY_POLICIES, `availability must be one of ${AVAILABILITY_POLICIES.join(', ')}.`)
      .default('prefer_available')
      .describe('Selection policy: prefer_available (default), available_only or all.'),
    relevance_criteria: z
      .string()
      .max(MAX_CRITERIA_LENGTH, `relevance_criteria is longer than ${MAX_CRITERIA_LENGTH} characters.`)
      .optional()
      .describe('Free text; a non-blank value triggers one relevance decision.'),
  })
  .describe('One domain search.');

export type SearchGroupInput = z.output<typeof SearchGroupSchema>;

/** Defaults applied to omitted group fields (for the skill's details route). */
export const INPUT_DEFAULTS = {
  country: DEFAULT_COUNTRY,
  currency: DEFAULT_CURRENCY,
  max_results: DEFAULT_MAX_RESULTS,
  availability: 'prefer_available',
} as const satisfies Partial<SearchGroupInput>;

/** Rejects a repeated `id`; runs even when other fields failed, so all issues come at once. */
function rejectDuplicateIds(value: unknown, ctx: z.RefinementCtx): void {
  const requests = (value as { requests?: unknown } | null)?.requests;
  if (!Array.isArray(requests)) return;
  const seen = new Set<string>();
  requests.forEach((group: unknown, index) => {
    const id = (group as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') return;
    if (seen.has(id))
      ctx.addIssue({ code: 'custom', path: ['requests', index, 'id'], message: 'Duplicate id.' });
    seen.add(id);
  });
}

/** The skill input envelope: 1 to 5 groups with distinct ids. */
export const SearchDomainsInputSchema = z
  .strictObject({
    requests: requestList(
      SearchGroupSchema,
      'One to five independent domain searches; the output keeps this order.',
    ),
  })
  .superRefine(rejectDuplicateIds, { when: () => true });

export type SearchDomainsInput = z.output<typeof SearchDomainsInputSchema>;

/** A validated group with its classified query and the warnings classification produced. */
export interface PreparedGroup {
  index: number;
  input: SearchGroupInput;
  target: QueryTarget;
  /** The term sent upstream: the ASCII FQDN or the keyword. */
  searchedQuery: string;
  warnings: Warning[];
}

/** Classifies each validated group's query. Input must come from {@link SearchDomainsInputSchema}. */
export function prepareGroups(input: SearchDomainsInput): PreparedGroup[] {
  return input.requests.map((group, index) => {
    const checked = classifyQuery(group.query);
    if (!checked.ok) throw invalidParameter([{ path: `requests[${index}].query`, message: checked.message }]);
    const { target } = checked;
    const searchedQuery = target.kind === 'fqdn' ? target.domain : target.keyword;
    const warnings =
      target.kind === 'keyword' && target.reduced
        ? [
            warning(
              'QUERY_REDUCED',
              `The brief was reduced to the keyword "${target.keyword}" before searching.`,
            ),
          ]
        : [];
    return { index, input: group, target, searchedQuery, warnings };
  });
}
