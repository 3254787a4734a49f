/**
 * The checked pool and the availability selection policy.
 * Unknown checks are diagnostic: they stay in the pool but never fill a result slot.
 */
import type { AvailabilityPolicy } from './input.js';
import type { Availability } from './joiner.js';
import { matchesSuffixes } from './names.js';
import { warning, type Warning } from './warnings.js';

/** The most checked candidates a group reports (`checked_results`). */
export const CHECKED_POOL_LIMIT = 40;

/** The fields selection needs; results and relevance candidates both have them. */
export interface Selectable {
  domain: string;
  availability: Availability;
}

/** The pool and whether candidates were cut to fit it. */
export interface CheckedPool<T> {
  pool: T[];
  truncated: boolean;
}

/**
 * Builds the checked pool: requested suffixes enforced on the canonical names (except the exact
 * name the caller asked for), duplicates merged (first position kept, a confirmed answer beats
 * an unknown one), at most 40 entries.
 */
export function buildCheckedPool<T extends Selectable>(
  results: readonly T[],
  options: {
    suffixes?: readonly string[] | undefined;
    exactDomain?: string | undefined;
    limit?: number;
  } = {},
): CheckedPool<T> {
  const { suffixes, exactDomain, limit = CHECKED_POOL_LIMIT } = options;
  const byDomain = new Map<string, number>();
  const merged: T[] = [];
  for (const result of results) {
    if (result.domain !== exactDomain && !matchesSuffixes(result.domain, suffixes)) continue;
    const at = byDomain.get(result.domain);
    if (at === undefined) {
      byDomain.set(result.domain, merged.length);
      merged.push(result);
    } else if (merged[at]?.availability === 'unknown' && result.availability !== 'unknown') {
      merged[at] = result;
    }
  }
  return { pool: merged.slice(0, limit), truncated: merged.length > limit };
}

/** Candidates that pass the hard filters of a policy (what may ever fill a slot). */
export function eligibleForPolicy<T extends Selectable>(pool: readonly T[], policy: AvailabilityPolicy): T[] {
  return pool.filter((r) =>
    policy === 'available_only' ? r.availability === 'available' : r.availability !== 'unknown',
  );
}

/** Options of {@link selectResults}. */
export interface SelectionOptions {
  policy: AvailabilityPolicy;
  maxResults: number;
  /** The canonical ASCII name when the query was an exact FQDN. */
  exactDomain?: string | undefined;
}

/** Selected results (at most maxResults) and the warnings selection produced. */
export interface Selection<T> {
  selected: T[];
  warnings: Warning[];
}

function exactWarnings<T extends Selectable>(exact: T | undefined, policy: AvailabilityPolicy): Warning[] {
  if (exact?.availability === 'unknown') {
    return [warning('EXACT_NAME_UNKNOWN', `The availability of ${exact.domain} could not be determined.`)];
  }
  if (exact?.availability === 'unavailable' && policy === 'available_only') {
    return [
      warning(
        'EXACT_NAME_IN_USE',
        `${exact.domain} is in use; available_only hides it (it is listed in checked_results).`,
      ),
    ];
  }
  return [];
}

/**
 * Applies the policy to an ordered pool:
 * - `prefer_available`: available names first, then in-use names fill any shortfall;
 * - `available_only`: available names only;
 * - `all`: available and in-use names in the pool's (ranked) order.
 * An exact query's own answer comes first when the policy shows it; in use under
 * `available_only` it yields EXACT_NAME_IN_USE instead.
 */
export function selectResults<T extends Selectable>(
  pool: readonly T[],
  options: SelectionOptions,
): Selection<T> {
  const { policy, maxResults, exactDomain } = options;
  const exact = exactDomain === undefined ? undefined : pool.find((r) => r.domain === exactDomain);
  const rest = pool.filter((r) => r !== exact);
  const eligible = eligibleForPolicy(rest, policy);
  const ordered =
    policy === 'prefer_available'
      ? [
          ...eligible.filter((r) => r.availability === 'available'),
          ...eligible.filter((r) => r.availability === 'unavailable'),
        ]
      : eligible;
  const head = exact && eligibleForPolicy([exact], policy).length > 0 ? [exact] : [];
  const warnings = exactWarnings(exact, policy);
  const unknown = rest.filter((r) => r.availability === 'unknown').length;
  if (unknown > 0) {
    warnings.push(
      warning(
        'AVAILABILITY_UNKNOWN',
        `${unknown} checked name(s) could not be checked and are listed only in checked_results.`,
      ),
    );
  }
  return { selected: [...head, ...ordered].slice(0, maxResults), warnings };
}
