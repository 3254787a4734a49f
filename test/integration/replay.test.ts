/**
 * Replays the recorded history of every language feature against today's workflow code, both
 * the histories recorded before `PROGRESS_BY_QUERY_PATCH` (memo per step change) and after it
 * (`query-progress*`; `decide`: the decide step, recorded on the model path; `flow-control`: a
 * step's retry, a wait on a timer, a wait whose instant has passed and a fail step; `groups`: an
 * inline loop and a tolerant parallel group; `loop-batches`: a loop of 120 elements in child
 * workflows, and `loop-batch`: the first of those children; `on-error`: a handled failure;
 * `use-workflow`: a run that runs `use-workflow-child` and reads its declared outputs;
 * `approval`: two approvals side by side, one approved after a refused payload, one rejected;
 * `event-wait`: two event waits side by side, each resumed by its event; `concurrency`: a run
 * that waited for its place under flow control, and `gate`: the owner's gate that queued it).
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
      'concurrency.json',
      'conditions.json',
      'continue-on-error.json',
      'decide.json',
      'event-wait.json',
      'failure.json',
      'flow-control.json',
      'gate.json',
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
  it.each(files.filter((f) => !['skill-call.json', 'loop-batch.json', 'gate.json'].includes(f)))(
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
        'concurrency.json',
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
          'concurrency.json',
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
        // A run that waited for its place says so in its memo as it starts and as it ends each
        // wait (once or twice here: the second time only if its place was still taken).
        const queuedWrites = file === 'concurrency.json' ? [2, 4] : [0];
        expect(queuedWrites.map((q) => (completed.includes(file) ? 0 : 1) + approvalWrites + q)).toContain(
          memoWrites,
        );
      } else {
        expect(patches).toEqual([]);
        expect(memoWrites).toBeGreaterThanOrEqual(2);
      }
    },
  );

  // A re-run takes over the steps before its loop and the loop's completed elements: it calls
  // only the failed element's activity and the last step's.
  // A run of a key whose place was taken: it asked the owner's gate, waited, was granted, gave the
  // place back for its wait step and took it again.
  it('concurrency.json: waits for its place, and gives it back for its wait', () => {
    const events = historyFromJSON(
      JSON.parse(readFileSync(path.join(dir, 'concurrency.json'), 'utf8')),
    ).events!;
    const signalled = events.flatMap((e) => {
      const out = e.signalExternalWorkflowExecutionInitiatedEventAttributes?.signalName;
      const into = e.workflowExecutionSignaledEventAttributes?.signalName;
      return out ? [`→ ${out}`] : into ? [`← ${into}`] : [];
    });
    expect(signalled.slice(0, 4)).toEqual([
      '→ slotAcquire',
      '← slotWaiting',
      '← slotGranted',
      '→ slotRelease',
    ]);
    expect(signalled.at(-1)).toBe('→ slotRelease');
    expect(events.filter((e) => e.activityTaskScheduledEventAttributes).length).toBe(2);
  });

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
