import { describe, expect, it } from 'vitest';
import { diagnosticsOf, planOf, SEARCH_STEP, withSteps } from '../testing/compile.js';
import { parseDuration } from './duration.js';

const scheduled = (schedule: string) => withSteps(SEARCH_STEP, `  schedule:\n${schedule}`);
const brief = (source: string) => diagnosticsOf(source).map((d) => [d.code, d.path, d.line, d.column]);

describe('schedule triggers', () => {
  it('compiles cron and every schedules', () => {
    expect(
      planOf(scheduled('    cron: "*/15  6-18 * * MON-FRI"\n    timezone: America/New_York')).trigger,
    ).toEqual({
      type: 'schedule',
      cron: '*/15 6-18 * * MON-FRI',
      timezone: 'America/New_York',
    });
    expect(planOf(scheduled('    every: 1h30m\n    timezone: UTC')).trigger).toEqual({
      type: 'schedule',
      every: '1h30m',
      everyMs: 5_400_000,
      timezone: 'UTC',
    });
  });

  const fields = (found: number) =>
    `Invalid cron expression: expected 5 fields (minute hour day-of-month month day-of-week), found ${found}.`;
  const badField = (field: string, takes: string) =>
    `Invalid cron expression: the ${field} field is malformed or out of range; it takes ${takes}, with *, lists (a,b), ranges (a-b) and steps (*/n).`;
  it.each([
    ['61 * * * *', badField('minute', '0-59')],
    ['0 25 * * *', badField('hour', '0-23')],
    ['0 9 * SMARCH *', badField('month', '1-12 or JAN-DEC')],
    ['0 9 * * MON-FUNDAY', badField('day-of-week', '0-7 or SUN-SAT')],
    ['0 9 *', fields(3)],
    ['0 9 * *', fields(4)],
    ['0 0 9 * * 1', fields(6)],
    ['@daily', fields(1)],
  ])('rejects cron %s', (cron, message) => {
    expect(diagnosticsOf(scheduled(`    cron: "${cron}"\n    timezone: UTC`))).toEqual([
      { code: 'INVALID_CRON', message, path: 'start_when.schedule.cron', line: 4, column: 11 },
    ]);
  });

  it.each(['Europe/Berln', 'europe/berlin', '+01:00', 'utc', 'Mars/Olympus'])(
    'rejects timezone %s',
    (timezone) => {
      expect(brief(scheduled(`    every: 15m\n    timezone: "${timezone}"`))).toEqual([
        ['INVALID_TIMEZONE', 'start_when.schedule.timezone', 5, 15],
      ]);
    },
  );

  it('accepts IANA aliases the runtime knows', () => {
    expect(planOf(scheduled('    every: 1d\n    timezone: US/Eastern')).trigger).toMatchObject({
      timezone: 'US/Eastern',
    });
  });

  it.each(['15', '30s', '0m', '1x', '367d', 'm'])('rejects every %s', (every) => {
    expect(brief(scheduled(`    every: "${every}"\n    timezone: UTC`))).toEqual([
      ['INVALID_DURATION', 'start_when.schedule.every', 4, 12],
    ]);
  });

  it('carries overlap and catchup_window only when written', () => {
    expect(
      planOf(
        scheduled('    every: 1m\n    timezone: UTC\n    overlap: buffer_all\n    catchup_window: 1h30s'),
      ).trigger,
    ).toEqual({
      type: 'schedule',
      every: '1m',
      everyMs: 60_000,
      timezone: 'UTC',
      overlap: 'buffer_all',
      catchupWindowMs: 3_630_000,
    });
    expect(
      planOf(scheduled('    cron: "0 9 * * *"\n    timezone: UTC\n    catchup_window: 7d')).trigger,
    ).toEqual({ type: 'schedule', cron: '0 9 * * *', timezone: 'UTC', catchupWindowMs: 604_800_000 });
    for (const overlap of ['skip', 'buffer_one', 'cancel_other', 'terminate_other', 'allow_all'])
      expect(
        planOf(scheduled(`    every: 1h\n    timezone: UTC\n    overlap: ${overlap}`)).trigger,
      ).toMatchObject({
        overlap,
      });
    expect(
      planOf(scheduled('    every: 1h\n    timezone: UTC\n    catchup_window: 10s')).trigger,
    ).toMatchObject({
      catchupWindowMs: 10_000,
    });
  });

  it.each(['9s', '0s', '7d1s', '8d', '1w', 'soon', '-1m', '""'])('rejects catchup_window %s', (window) => {
    expect(
      diagnosticsOf(scheduled(`    every: 1h\n    timezone: UTC\n    catchup_window: ${window}`)),
    ).toEqual([
      {
        code: 'INVALID_DURATION',
        message: 'Invalid catchup_window: use a duration such as 30s, 5m or 1h, from 10s to 7d.',
        path: 'start_when.schedule.catchup_window',
        line: 6,
        column: 21,
      },
    ]);
  });

  it('rejects an unknown overlap and a catchup_window that is not text, at the field', () => {
    expect(brief(scheduled('    every: 1h\n    timezone: UTC\n    overlap: queue_up'))).toEqual([
      ['INVALID_VALUE', 'start_when.schedule.overlap', 6, 14],
    ]);
    expect(brief(scheduled('    every: 1h\n    timezone: UTC\n    overlap: SKIP'))).toEqual([
      ['INVALID_VALUE', 'start_when.schedule.overlap', 6, 14],
    ]);
    expect(brief(scheduled('    every: 1h\n    timezone: UTC\n    catchup_window: 60'))).toEqual([
      ['INVALID_TYPE', 'start_when.schedule.catchup_window', 6, 21],
    ]);
  });

  it('reports a bad catchup_window next to a bad cron', () => {
    expect(brief(scheduled('    cron: "61 * * * *"\n    timezone: UTC\n    catchup_window: 1y'))).toEqual([
      ['INVALID_CRON', 'start_when.schedule.cron', 4, 11],
      ['INVALID_DURATION', 'start_when.schedule.catchup_window', 6, 21],
    ]);
  });

  it('requires exactly one of cron and every, and exactly one trigger', () => {
    expect(brief(scheduled('    cron: "0 9 * * *"\n    every: 1h\n    timezone: UTC'))).toEqual([
      ['INVALID_SCHEDULE', 'start_when.schedule', 4, 5],
    ]);
    expect(brief(withSteps(SEARCH_STEP, '  manual: {}\n  schedule: { every: 1h, timezone: UTC }'))).toEqual([
      ['INVALID_TRIGGER', 'start_when', 3, 3],
    ]);
    expect(brief(withSteps(SEARCH_STEP, '  {}'))).toEqual([['INVALID_TRIGGER', 'start_when', 3, 3]]);
    expect(brief(scheduled('    every: 1h'))).toEqual([['MISSING_FIELD', 'start_when.schedule', 4, 5]]);
  });
});

describe('manual triggers', () => {
  it('compiles declared run inputs and accepts a bare manual:', () => {
    const inputs =
      '  manual:\n    inputs:\n      keyword: { type: string, required: true, description: Word }\n      limit: { type: integer, default: 5 }';
    expect(planOf(withSteps(SEARCH_STEP, inputs)).trigger).toEqual({
      type: 'manual',
      inputs: {
        keyword: { type: 'string', required: true, description: 'Word' },
        limit: { type: 'integer', required: false, default: 5 },
      },
    });
    expect(planOf(withSteps(SEARCH_STEP, '  manual:')).trigger).toEqual({ type: 'manual', inputs: {} });
  });

  it('rejects bad names, defaults and types', () => {
    const inputs =
      '  manual:\n    inputs:\n      Bad: { type: string }\n      limit: { type: integer, default: "5" }\n      when: { type: date }';
    expect(brief(withSteps(SEARCH_STEP, inputs))).toEqual([
      ['INVALID_VALUE', 'start_when.manual.inputs.when.type', 7, 21],
    ]);
    const valid = inputs.replace('{ type: date }', '{ type: string }');
    expect(brief(withSteps(SEARCH_STEP, valid))).toEqual([
      ['INVALID_INPUT_NAME', 'start_when.manual.inputs.Bad', 5, 7],
      ['INVALID_DEFAULT', 'start_when.manual.inputs.limit.default', 6, 40],
    ]);
  });
});

describe('step timeouts', () => {
  const withTimeout = (timeout: string) =>
    withSteps(SEARCH_STEP.replace('    input:', `    timeout: ${timeout}\n    input:`));

  it('stores milliseconds within the skill maximum', () => {
    expect(planOf(withTimeout('45s')).steps[0]).toMatchObject({ timeoutMs: 45_000 });
  });

  it('rejects malformed and too-long timeouts', () => {
    expect(brief(withTimeout('fast'))).toEqual([['INVALID_DURATION', 'steps[0].timeout', 7, 14]]);
    expect(diagnosticsOf(withTimeout('6m'))).toMatchObject([
      {
        code: 'TIMEOUT_TOO_LONG',
        message: 'The timeout exceeds the maximum of 300s for this step.',
        line: 7,
      },
    ]);
  });
});

describe('parseDuration', () => {
  it('parses ordered unit parts', () => {
    expect([
      parseDuration('30s'),
      parseDuration('2m'),
      parseDuration('1d2h3m4s'),
      parseDuration(' 1h '),
    ]).toEqual([30_000, 120_000, 93_784_000, 3_600_000]);
    expect([parseDuration(''), parseDuration('1m1h'), parseDuration('0s'), parseDuration('1.5h')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('webhook triggers', () => {
  it('compiles declared run inputs and accepts a bare webhook:', () => {
    const inputs = '  webhook:\n    inputs:\n      order_id: { type: string, required: true }';
    expect(planOf(withSteps(SEARCH_STEP, inputs)).trigger).toEqual({
      type: 'webhook',
      inputs: { order_id: { type: 'string', required: true } },
    });
    expect(planOf(withSteps(SEARCH_STEP, '  webhook:')).trigger).toEqual({ type: 'webhook', inputs: {} });
    expect(planOf(withSteps(SEARCH_STEP, '  webhook: {}')).trigger).toEqual({ type: 'webhook', inputs: {} });
  });

  it('reports bad input names, unknown fields and a second trigger at their positions', () => {
    expect(brief(withSteps(SEARCH_STEP, '  webhook:\n    inputs:\n      Order: { type: string }'))).toEqual([
      ['INVALID_INPUT_NAME', 'start_when.webhook.inputs.Order', 5, 7],
    ]);
    expect(brief(withSteps(SEARCH_STEP, '  webhook: { secret: x }'))).toEqual([
      ['UNKNOWN_FIELD', 'start_when.webhook.secret', 3, 14],
    ]);
    expect(diagnosticsOf(withSteps(SEARCH_STEP, '  manual: {}\n  webhook: {}'))).toEqual([
      {
        code: 'INVALID_TRIGGER',
        message: 'start_when must hold exactly one trigger. Use one of manual, schedule, event and webhook.',
        path: 'start_when',
        line: 3,
        column: 3,
      },
    ]);
    expect(diagnosticsOf(withSteps(SEARCH_STEP, '  {}'))[0]?.message).toBe(
      'start_when must hold exactly one trigger. Add manual: {}, schedule: {...}, event: {...} or webhook: {}.',
    );
  });
});
