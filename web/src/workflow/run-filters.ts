/**
 * The runs page's filters, kept in the location hash (`#runs?status=failed&trigger=manual`) so a
 * reload or a shared link shows the same runs. Pure: a value that does not fit its filter is
 * dropped, so a hand-edited hash never reaches the API as a bad request.
 */
import type { RunSearch } from './api.js';

/** Statuses the runs search filters on. */
export const RUN_STATUSES = ['running', 'completed', 'failed', 'cancelled', 'timed_out'] as const;
/** How a run started, as the runs search filters on it, with the words the page shows. */
export const RUN_TRIGGERS = {
  manual: 'by hand',
  schedule: 'on its schedule',
  event: 'by an event',
  webhook: 'by a webhook',
  workflow: 'by another workflow',
  rerun: 'as a re-run',
} as const;

/** The filters as the form and the hash hold them (days as `yyyy-mm-dd`). */
export interface RunFilterValues {
  workflow_id?: string;
  status?: string;
  trigger?: string;
  failed_step?: string;
  from?: string;
  to?: string;
}

const RULES: Record<keyof RunFilterValues, (v: string) => boolean> = {
  workflow_id: (v) => /^wf_[a-z0-9_]{1,80}$/.test(v),
  status: (v) => (RUN_STATUSES as readonly string[]).includes(v),
  trigger: (v) => Object.hasOwn(RUN_TRIGGERS, v),
  failed_step: (v) => /^[a-z][a-z0-9_]{0,63}$/.test(v),
  from: (v) => /^\d{4}-\d\d-\d\d$/.test(v),
  to: (v) => /^\d{4}-\d\d-\d\d$/.test(v),
};
const NAMES = Object.keys(RULES) as Array<keyof RunFilterValues>;

/** Only the filters whose values fit, in a fixed order. */
export function cleanFilters(values: Record<string, string | undefined>): RunFilterValues {
  const out: RunFilterValues = {};
  for (const name of NAMES) {
    const value = values[name]?.trim();
    if (value && RULES[name](value)) out[name] = value;
  }
  return out;
}

/** The filters of a `#runs?…` hash; none for a bare `#runs`. */
export function filtersFromHash(hash: string): RunFilterValues {
  const at = hash.indexOf('?');
  if (at < 0) return {};
  return cleanFilters(Object.fromEntries(new URLSearchParams(hash.slice(at + 1))));
}

/** The hash that holds `filters`. */
export function hashOfFilters(filters: RunFilterValues): string {
  const query = new URLSearchParams(Object.entries(cleanFilters({ ...filters })) as Array<[string, string]>);
  const text = query.toString();
  return text ? `#runs?${text}` : '#runs';
}

/** Local midnight of a `yyyy-mm-dd` day, `days` later, as an RFC 3339 instant. */
function dayStart(day: string | undefined, days = 0): string | undefined {
  if (!day) return undefined;
  const at = new Date(`${day}T00:00:00`);
  at.setDate(at.getDate() + days);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

/** The API query of the filters: the "to" day is included (runs before the next day's midnight). */
export function searchOf(filters: RunFilterValues): RunSearch {
  const search: RunSearch = {
    workflow_id: filters.workflow_id,
    status: filters.status,
    trigger: filters.trigger,
    failed_step: filters.failed_step,
    started_after: dayStart(filters.from),
    started_before: dayStart(filters.to, 1),
  };
  return Object.fromEntries(Object.entries(search).filter(([, v]) => v));
}
