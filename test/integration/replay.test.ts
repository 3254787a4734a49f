/**
 * Replays the recorded history of every language feature against today's workflow code.
 * A failure means an interpreter change would break runs that are open right now: guard the
 * change with `patched()` instead of re-recording (see scripts/record-histories.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { dataConverterFor } from '../../lib/temporal/client.js';
import { workflowBundle } from '../../worker/index.js';
import { TEST_KEYRING } from '../helpers/fixtures.js';

const dir = path.resolve(import.meta.dirname, '../fixtures/histories');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('recorded workflow histories replay deterministically', () => {
  it('has a history for every language feature', () => {
    expect(files).toEqual([
      'cancelled.json',
      'conditions.json',
      'continue-on-error.json',
      'failure.json',
      'references-and-chat.json',
      'scheduled.json',
      'skill-call.json',
    ]);
  });

  it.each(files)('%s', async (file) => {
    const history = historyFromJSON(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
    expect(history.events!.length).toBeGreaterThan(8);
    await Worker.runReplayHistory(
      { workflowBundle: await workflowBundle(), dataConverter: dataConverterFor(TEST_KEYRING) },
      history,
      file,
    );
  });
});
