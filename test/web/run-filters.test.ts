/** The runs page's filters in the location hash: parsed, cleaned and turned into the API query. */
import { describe, expect, it } from 'vitest';
import {
  cleanFilters,
  filtersFromHash,
  hashOfFilters,
  searchOf,
} from '../../web/src/workflow/run-filters.js';

describe('runs page filters in the hash', () => {
  it('round-trips every filter through the hash, in a fixed order', () => {
    const filters = {
      trigger: 'schedule',
      status: 'failed',
      workflow_id: 'wf_0a1b',
      failed_step: 'check',
      from: '2026-11-01',
      to: '2026-11-27',
    };
    const hash = hashOfFilters(filters);
    expect(hash).toBe(
      '#runs?workflow_id=wf_0a1b&status=failed&trigger=schedule&failed_step=check&from=2026-11-01&to=2026-11-27',
    );
    expect(filtersFromHash(hash)).toEqual(filters);
    expect(hashOfFilters({})).toBe('#runs');
    expect(filtersFromHash('#runs')).toEqual({});
  });

  it('drops values that do not fit their filter', () => {
    expect(
      filtersFromHash(
        '#runs?status=queued&trigger=cron&workflow_id=task_1&failed_step=Bad&from=today&to=2026-1-2&x=1',
      ),
    ).toEqual({});
    expect(cleanFilters({ status: ' completed ', trigger: '', failed_step: undefined })).toEqual({
      status: 'completed',
    });
  });

  it('asks the API for runs from the first day to the end of the last, in the local time zone', () => {
    const from = new Date('2026-11-01T00:00:00');
    const after = new Date('2026-11-28T00:00:00');
    expect(searchOf({ status: 'failed', trigger: 'manual', from: '2026-11-01', to: '2026-11-27' })).toEqual({
      status: 'failed',
      trigger: 'manual',
      started_after: from.toISOString(),
      started_before: after.toISOString(),
    });
    expect(searchOf({})).toEqual({});
  });
});
