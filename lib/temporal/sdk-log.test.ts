import { describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/common';
import { redactSdkLog } from './sdk-log.js';

const SECRET = 'zebra-marmalade';

describe('redactSdkLog', () => {
  it.each([
    [
      'an activity failure with a user query in its message and details',
      'Activity failed',
      {
        activityType: 'echo.shout',
        workflowId: 'task_1',
        attempt: 2,
        error: ApplicationFailure.create({
          type: 'INVALID_PARAMETER',
          message: `bad ${SECRET}`,
          details: [SECRET],
        }),
      },
      {
        message: 'Activity failed',
        meta: {
          activityType: 'echo.shout',
          workflowId: 'task_1',
          attempt: 2,
          errorType: 'INVALID_PARAMETER',
        },
      },
    ],
    [
      'a core line with the failure as text',
      'Failing workflow task',
      { sdkComponent: 'core', run_id: 'r1', failure: `Failure { message: "${SECRET}" }` },
      {
        message: 'Failing workflow task',
        meta: { sdkComponent: 'core', run_id: 'r1', errorType: 'unknown' },
      },
    ],
    [
      'a message that appends the error text after a colon',
      `Error while processing ActivityTask.start: ${SECRET}`,
      { err: new TypeError(SECRET), taskToken: SECRET },
      { message: 'Error while processing ActivityTask.start', meta: { errorType: 'TypeError' } },
    ],
    [
      'unknown keys and long strings',
      'Workflow task duration exceeded 5 seconds.',
      { query: SECRET, workflowType: 'x'.repeat(201), event_id: 4 },
      { message: 'Workflow task duration exceeded 5 seconds.', meta: { event_id: 4 } },
    ],
  ])('keeps only identifiers: %s', (_name, message, meta, expected) => {
    const line = redactSdkLog(message, meta);
    expect(line).toEqual(expected);
    expect(JSON.stringify(line)).not.toContain(SECRET);
  });
});
