/**
 * The instant a `wait` step sleeps until. Pure: the workflow passes its own (deterministic)
 * clock. A wait is at most {@link MAX_WAIT_MS}; an instant in the past continues at once.
 */

/** The longest wait (366 days), for `duration` at compile time and `until` at run time. */
export const MAX_WAIT_MS = 366 * 24 * 3600_000;

/**
 * An ISO-8601 instant with a date, a time and an explicit offset: `2026-12-01T09:00:00Z`,
 * `2026-12-01T10:00:00.250+01:00`. No other spelling is read, so every engine agrees on it.
 */
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (no clock or Date object involved). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** Milliseconds since the epoch of an ISO-8601 instant, or undefined when it is not one. */
export function parseInstant(text: string): number | undefined {
  const m = INSTANT.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s = '0', frac = '0', zone = 'Z'] = m;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const monthDays = month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
  if (day < 1 || day > monthDays) return undefined;
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const [zh, zm] = zone.slice(1).split(':').map(Number) as [number, number];
    if (zh > 23 || zm > 59) return undefined;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (zh * 60 + zm);
  }
  const millis = Number(frac.slice(0, 3).padEnd(3, '0'));
  const minutes = daysFromCivil(year, month, day) * 1440 + hour * 60 + minute - offsetMinutes;
  return minutes * 60_000 + second * 1000 + millis;
}

/** Why a rendered `until` cannot be waited for. */
export type WaitProblem = { code: 'INVALID_WAIT_UNTIL' | 'WAIT_TOO_LONG'; message: string };

/** How long to sleep from `nowMs` until `until` (0 when it has passed), or the problem. */
export function waitUntil(until: string, nowMs: number): { ms: number } | WaitProblem {
  const at = parseInstant(until);
  if (at === undefined)
    return {
      code: 'INVALID_WAIT_UNTIL',
      message: 'The wait step needs an ISO-8601 instant with an offset, such as 2026-12-01T09:00:00Z.',
    };
  const ms = Math.max(0, at - nowMs);
  if (ms > MAX_WAIT_MS) return { code: 'WAIT_TOO_LONG', message: 'The wait step may wait at most 366 days.' };
  return { ms };
}
