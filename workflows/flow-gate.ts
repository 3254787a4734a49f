/**
 * One owner's run gate: a long-lived workflow that hands out run slots (flow-queue.ts has the
 * rules). Runs ask with the `slotAcquire` signal and give back with `slotRelease`; the gate
 * answers each grant with the run's `slotGranted` signal, and tells a run that has to wait with
 * `slotWaiting` once. Its state lives in its history (and in the arguments of its next run when
 * it continues as new), so restarts lose no waiting run. Concurrency keys stay inside its
 * encoded payloads; the workflow id names only the owner.
 *
 * A run that ended without giving its slot back (terminated) is found when a signal to it fails:
 * the gate signals its holders with `slotCheck` while runs wait and drops those that are gone.
 * With nothing held or waiting for `GATE_IDLE_MS` the gate ends; the next request starts it
 * again. Deterministic workflow code.
 */
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  getExternalWorkflowHandle,
  setHandler,
  workflowInfo,
  type SignalDefinition,
} from '@temporalio/workflow';
import { emptyGate, enqueue, grant, idle, placeOf, release, untold } from './flow-queue.js';
import type { GateState, QueuePlace, SlotRequest } from './flow-queue.js';

export const slotAcquireSignal = defineSignal<[SlotRequest]>('slotAcquire');
export const slotReleaseSignal = defineSignal<[{ run: string }]>('slotRelease');
/** To a run: its slot is granted. */
export const slotGrantedSignal = defineSignal('slotGranted');
/** To a run: it waits in the queue. */
export const slotWaitingSignal = defineSignal('slotWaiting');
/** To a holder while runs wait: a liveness check (a run that is gone fails the signal). */
export const slotCheckSignal = defineSignal('slotCheck');
/** A waiting run's place, for the task view. */
export const slotPlaceQuery = defineQuery<QueuePlace | null, [string]>('slotPlace');

/** The gate of an owner's runs. */
export function gateIdOf(ownerId: string): string {
  return `gate_${ownerId}`;
}

/** The gate ends after this long with nothing held or waiting. */
export const GATE_IDLE_MS = 60_000;
/** While runs wait, holders are checked this often. */
export const GATE_CHECK_MS = 5 * 60_000;
/** The gate continues as new past this many history events (or when Temporal suggests it). */
const GATE_HISTORY_EVENTS = 4_000;

export interface RunGateInput {
  ownerId: string;
  state?: GateState;
  /** The request that started the gate. */
  first?: SlotRequest;
}

export async function runGate(input: RunGateInput): Promise<void> {
  const state = input.state ?? emptyGate();
  let changed = false;
  if (input.first) {
    enqueue(state, input.first);
    changed = true;
  }
  setHandler(slotAcquireSignal, (req) => {
    enqueue(state, req);
    changed = true;
  });
  setHandler(slotReleaseSignal, ({ run }) => {
    release(state, run);
    changed = true;
  });
  setHandler(slotPlaceQuery, (run) => placeOf(state, run) ?? null);

  for (;;) {
    changed = false;
    const granted = grant(state);
    const told = untold(state);
    const gone = await signalAll([
      ...granted.map((run) => ({ run, signal: slotGrantedSignal })),
      ...told.map((run) => ({ run, signal: slotWaitingSignal })),
    ]);
    for (const run of gone) release(state, run);
    if (gone.length > 0) continue;
    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength > GATE_HISTORY_EVENTS) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof runGate>({ ownerId: input.ownerId, state });
    }
    if (idle(state)) {
      if (!(await condition(() => changed, GATE_IDLE_MS))) return;
      continue;
    }
    if (state.queue.length === 0) {
      await condition(() => changed);
      continue;
    }
    if (await condition(() => changed, GATE_CHECK_MS)) continue;
    const lost = await signalAll(state.holders.map(({ run }) => ({ run, signal: slotCheckSignal })));
    for (const run of lost) release(state, run);
  }
}

/** Sends each signal; answers the runs that could not be signalled (gone). */
async function signalAll(sends: Array<{ run: string; signal: SignalDefinition }>): Promise<string[]> {
  const results = await Promise.allSettled(
    sends.map(({ run, signal }) => getExternalWorkflowHandle(run).signal(signal)),
  );
  return sends.flatMap(({ run }, i) => (results[i]!.status === 'rejected' ? [run] : []));
}
