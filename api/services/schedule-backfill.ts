/**
 * Backfill of a definition's schedule: the ticks of a past window, both ends included as
 * Temporal's schedule backfill takes them, started now through `ScheduleHandle.backfill`. The
 * window must end by now (a backfill is for the past; the schedule itself runs the future) and
 * hold at most {@link MAX_BACKFILL_TICKS} ticks, counted by the schedule server
 * (ListScheduleMatchingTimes) so that cron and every are counted as the backfill runs them.
 */
import { msToTs, tsToMs } from '@temporalio/common/lib/time.js';
import type { PlanTrigger, ScheduleOverlap } from '../../definitions/runtime/plan.js';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { TemporalClient } from '../../lib/temporal/client.js';
import { temporalOverlap } from './schedule-policy.js';

type ScheduleTrigger = Extract<PlanTrigger, { type: 'schedule' }>;

/** The most ticks one backfill runs. */
export const MAX_BACKFILL_TICKS = 1000;

export interface BackfillWindow {
  start: Date;
  end: Date;
  /** Overrides the schedule's overlap policy for these ticks. */
  overlap: ScheduleOverlap;
}

/** A refused window: `path` in the body (`''` for the whole body). */
function refused(path: string, message: string, extra: Record<string, unknown> = {}): SkillflowError {
  return new SkillflowError(
    'INVALID_BACKFILL_WINDOW',
    `Invalid backfill window at ${path || '(root)'}: ${message}`,
    {
      issues: [{ path, message, location: 'body' }],
      ...extra,
    },
  );
}

/** The bounds that need no schedule: start before end, end not after `now`. */
export function checkWindowBounds(window: Pick<BackfillWindow, 'start' | 'end'>, now: Date): void {
  if (window.start.getTime() >= window.end.getTime()) throw refused('end', 'must be after start');
  if (window.end.getTime() > now.getTime())
    throw refused('end', 'must not be in the future; a backfill runs past ticks');
}

/**
 * The ticks of an `every` schedule in [start, end]: every interval is anchored to the Unix
 * epoch (README "Schedules"), so they are the multiples of it.
 */
export function everyTicks(everyMs: number, window: Pick<BackfillWindow, 'start' | 'end'>): number {
  const first = Math.ceil(window.start.getTime() / everyMs);
  const last = Math.floor(window.end.getTime() / everyMs);
  return Math.max(0, last - first + 1);
}

/**
 * The ticks of the schedule in [start, end] as its server lists them (for cron), counted up to
 * `max + 1`: one listing call answers at most 1,000 times, so a second one tells whether the
 * window holds more.
 */
export async function listedTicks(
  temporal: TemporalClient,
  scheduleId: string,
  window: Pick<BackfillWindow, 'start' | 'end'>,
  max = MAX_BACKFILL_TICKS,
): Promise<number> {
  // The server lists the times after startTime; the backfill's start is inclusive.
  let after = window.start.getTime() - 1;
  let ticks = 0;
  while (ticks <= max) {
    const { startTime } = await temporal.client.workflowService.listScheduleMatchingTimes({
      namespace: temporal.namespace,
      scheduleId,
      startTime: msToTs(after),
      endTime: msToTs(window.end.getTime()),
    });
    const times = startTime ?? [];
    ticks += times.length;
    const last = times.at(-1);
    if (!last || times.length < LISTED_PER_CALL) break;
    after = tsToMs(last);
  }
  return Math.min(ticks, max + 1);
}

/** The most times the schedule server lists per ListScheduleMatchingTimes call. */
const LISTED_PER_CALL = 1000;

/** Checks the window's ticks and starts them; answers how many. */
export async function backfillSchedule(
  temporal: TemporalClient,
  scheduleId: string,
  trigger: ScheduleTrigger,
  window: BackfillWindow,
): Promise<number> {
  const ticks =
    'everyMs' in trigger
      ? everyTicks(trigger.everyMs, window)
      : await listedTicks(temporal, scheduleId, window);
  if (ticks > MAX_BACKFILL_TICKS)
    throw refused('', `holds more than ${MAX_BACKFILL_TICKS} ticks of the schedule`, {
      ticks,
      max: MAX_BACKFILL_TICKS,
    });
  if (ticks > 0)
    await temporal.client.schedule.getHandle(scheduleId).backfill({
      start: window.start,
      end: window.end,
      overlap: temporalOverlap(window.overlap),
    });
  return ticks;
}
