/** What crosses into Temporal: a store outage is retried even from a final skill outcome. */
import { type ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import { STORE_UNREACHABLE, toApplicationFailure } from './boundary.js';

const shape = (f: ApplicationFailure) => ({ type: f.type, message: f.message, nonRetryable: f.nonRetryable });

describe('toApplicationFailure', () => {
  it('retries an unreachable store, final or not, without the driver text', () => {
    const down = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    const expected = { type: 'SERVICE_UNAVAILABLE', message: STORE_UNREACHABLE, nonRetryable: false };
    expect(shape(toApplicationFailure(down))).toEqual(expected);
    expect(shape(toApplicationFailure(down, { final: true }))).toEqual(expected);
  });

  it('keeps any other unknown error INTERNAL and not retried, and catalogue errors as they are', () => {
    const bad = Object.assign(new Error('syntax error at or near "selec"'), { code: '42601' });
    expect(shape(toApplicationFailure(bad))).toEqual({
      type: 'INTERNAL',
      message: 'An internal error occurred.',
      nonRetryable: true,
    });
    expect(shape(toApplicationFailure(new SkillflowError('SERVICE_UNAVAILABLE'), { final: true }))).toEqual({
      type: 'SERVICE_UNAVAILABLE',
      message: 'A part of the service is unavailable.',
      nonRetryable: true,
    });
  });
});
