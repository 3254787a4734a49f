import { describe, expect, it } from 'vitest';
import { MAX_WAIT_MS, parseInstant, waitUntil } from './wait.js';

describe('parseInstant', () => {
  it('reads ISO-8601 instants with an offset exactly as Date.parse does', () => {
    for (const text of [
      '2026-12-01T09:00:00Z',
      '2026-12-01T09:00Z',
      '2026-12-01T10:00:00.250+01:00',
      '2024-02-29T23:59:59.999-05:30',
      '1999-12-31T23:59:59Z',
      '2400-02-29T00:00:00Z',
      '1970-01-01T00:00:00Z',
      '1969-07-20T20:17:40Z',
      '2026-03-29T01:30:00.123456789+14:00',
    ])
      expect([text, parseInstant(text)]).toEqual([text, Date.parse(text)]);
  });

  it('refuses anything else: no offset, dates that do not exist, out-of-range fields, other spellings', () => {
    for (const text of [
      '2026-12-01T09:00:00',
      '2026-12-01',
      '2026-02-29T00:00:00Z',
      '2100-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-00-10T00:00:00Z',
      '2026-12-01T24:00:00Z',
      '2026-12-01T09:60:00Z',
      '2026-12-01T09:00:60Z',
      '2026-12-01T09:00:00+24:00',
      '2026-12-01 09:00:00Z',
      'tomorrow',
      '',
      '1764579600000',
    ])
      expect([text, parseInstant(text)]).toEqual([text, undefined]);
  });
});

describe('waitUntil', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  it('sleeps until the instant; a past instant continues at once', () => {
    expect(waitUntil('2026-11-25T12:10:00Z', now)).toEqual({ ms: 600_000 });
    expect(waitUntil('2026-11-25T11:00:00Z', now)).toEqual({ ms: 0 });
  });
  it('refuses a malformed instant and one more than 366 days ahead, with the whole problem', () => {
    expect(waitUntil('next friday', now)).toEqual({
      code: 'INVALID_WAIT_UNTIL',
      message: 'The wait step needs an ISO-8601 instant with an offset, such as 2026-12-01T09:00:00Z.',
    });
    expect(waitUntil('2027-11-26T12:00:00Z', now)).toEqual({ ms: MAX_WAIT_MS });
    expect(waitUntil('2027-11-26T12:00:00.001Z', now)).toEqual({
      code: 'WAIT_TOO_LONG',
      message: 'The wait step may wait at most 366 days.',
    });
  });
});
