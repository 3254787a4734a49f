/**
 * Replays the recorded history of every language feature against today's workflow code, both
 * the histories recorded before `PROGRESS_BY_QUERY_PATCH` (memo per step change) and after it
 * (`query-progress*`; `decide`: the decide step, recorded on the model path; `flow-control`: a
 * step's retry, a wait on a timer, a wait whose instant has passed and a fail step; `groups`: an
 * inline loop and a tolerant parallel group; `loop-batches`: a loop of 120 elements in child
 * workflows, and `loop-batch`: the first of those children; `on-error`: a handled failure;
 * `use-workflow`: a run that runs `use-workflow-child` and reads its declared outputs;
 * `approval`: two approvals side by side, one approved after a refused payload, one rejected;
 * `event-wait`: two event waits side by side, each resumed by its event).
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
import { PROGRESS_BY_QUERY_PATCH } from '../../workflows/run-definition.js';
import { TEST_KEYRING } from '../helpers/fixtures.js';

const dir = path.resolve(import.meta.dirname, '../fixtures/histories');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('recorded workflow histories replay deterministically', () => {
  it('has a history for every language feature', () => {
    expect(files).toEqual([
      'approval.json',
      'cancelled.json',
      'conditions.json',
      'continue-on-error.json',
      'decide.json',
      'event-wait.json',
      'failure.json',
      'flow-control.json',
      'groups.json',
      'loop-batch.json',
      'loop-batches.json',
      'on-error.json',
      'query-progress-cancelled.json',
      'query-progress-failure.json',
      'query-progress.json',
      'references-and-chat.json',
      'rerun.json',
      'scheduled.json',
      'skill-call.json',
      'use-workflow-child.json',
      'use-workflow.json',
    ]);
  });

  // The per-step memo of older runs, and the query-only path behind PROGRESS_BY_QUERY_PATCH.
  it.each(files.filter((f) => f !== 'skill-call.json' && f !== 'loop-batch.json'))(
    '%s: the interpreter path it records',
    (file) => {
      const events = historyFromJSON(JSON.parse(readFileSync(path.join(dir, file), 'utf8'))).events!;
      const patches = events
        .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')
        .map((e) => {
          const data = e.markerRecordedEventAttributes!.details!['patch-data']!.payloads![0]!.data!;
          return (JSON.parse(Buffer.from(data).toString('utf8')) as { id: string }).id;
        });
      const memoWrites = events.filter((e) => e.workflowPropertiesModifiedEventAttributes).length;
      const sincePatch = [
        'approval.json',
        'decide.json',
        'event-wait.json',
        'flow-control.json',
        'groups.json',
        'loop-batches.json',
        'on-error.json',
        'rerun.json',
        'use-workflow-child.json',
        'use-workflow.json',
      ];
      if (file.startsWith('query-progress') || sincePatch.includes(file)) {
        expect(patches).toEqual([PROGRESS_BY_QUERY_PATCH]);
        // One memo write as a failed or cancelled run ends; none for a completed one.
        const completed = [
          'approval.json',
          'query-progress.json',
          'decide.json',
          'event-wait.json',
          'groups.json',
          'loop-batches.json',
          'on-error.json',
          'rerun.json',
          'use-workflow-child.json',
          'use-workflow.json',
        ];
        // An approval lists itself in the memo as it starts and as it ends waiting (two here).
        const approvalWrites = file === 'approval.json' ? 4 : 0;
        expect(memoWrites).toBe((completed.includes(file) ? 0 : 1) + approvalWrites);
      } else {
        expect(patches).toEqual([]);
        expect(memoWrites).toBeGreaterThanOrEqual(2);
      }
    },
  );

  // A re-run takes over the steps before its loop and the loop's completed elements: it calls
  // only the failed element's activity and the last step's.
  it('rerun.json: runs only what the earlier run did not complete', () => {
    const events = historyFromJSON(JSON.parse(readFileSync(path.join(dir, 'rerun.json'), 'utf8'))).events!;
    expect(events.filter((e) => e.activityTaskScheduledEventAttributes).length).toBe(2);
  });

  it.each(files)('%s', async (file) => {
    const history = historyFromJSON(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
    expect(history.events!.length).toBeGreaterThan(8);
    // A run names its child workflows after its own id: replay under the recorded one.
    const child = history.events!.find((e) => e.startChildWorkflowExecutionInitiatedEventAttributes);
    const childId = child?.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId;
    await Worker.runReplayHistory(
      { workflowBundle: await workflowBundle(), dataConverter: dataConverterFor(TEST_KEYRING) },
      history,
      childId ? childId.replace(/\.\d+$/, '') : file,
    );
  });

  // A worker that turns tracing on replays runs recorded without it: the tracing interceptors
  // (lib/tracing/temporal.ts) must not change a recorded run's commands. Replay exports no span.
  it.each(files)('%s, with the tracing interceptors', async (file) => {
    const history = historyFromJSON(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
    const child = history.events!.find((e) => e.startChildWorkflowExecutionInitiatedEventAttributes);
    const childId = child?.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId;
    const exported: unknown[] = [];
    await Worker.runReplayHistory(
      {
        workflowBundle: await workflowBundle(true),
        dataConverter: dataConverterFor(TEST_KEYRING),
        sinks: { exporter: { export: { fn: (_info, spans) => void exported.push(spans) } } },
      },
      history,
      childId ? childId.replace(/\.\d+$/, '') : file,
    );
    expect(exported).toEqual([]);
  });
});
