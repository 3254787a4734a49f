/**
 * A run's side of flow control: it takes a slot from its owner's gate (flow-gate.ts) before its
 * first step and gives it back when it ends, however it ends. A run holds a slot only while one
 * of its steps runs: when every step at hand is a wait (a `wait`, `wait_for_approval` or
 * `wait_for_event` step) it gives the slot back, and its next step takes one again, ahead of
 * runs that have not started. So at most `limit` runs of a key, and at most the owner's cap of
 * the owner's runs, have a step running at any time.
 *
 * The gate is asked with a signal; when it is not running, the run starts it (a child workflow
 * that outlives the run: abandoned on close and on cancellation). While it waits, the run says
 * so in its progress and its memo (the task view and run lists show it `queued`). Deterministic
 * workflow code.
 */
import {
  CancellationScope,
  ChildWorkflowCancellationType,
  condition,
  getExternalWorkflowHandle,
  ParentClosePolicy,
  setHandler,
  startChild,
  upsertMemo,
  workflowInfo,
} from '@temporalio/workflow';
import type { PlanStep } from '../definitions/runtime/index.js';
import type { SlotRequest } from './flow-queue.js';
import {
  gateIdOf,
  runGate,
  slotAcquireSignal,
  slotCheckSignal,
  slotGrantedSignal,
  slotReleaseSignal,
  slotWaitingSignal,
} from './flow-gate.js';

/** The memo field of a run that waits for a slot (absent, or null, otherwise). */
export const QUEUED_MEMO_KEY = 'queued';

/** Steps that only wait: a run whose steps at hand are all waits holds no slot. */
const WAITS: ReadonlySet<PlanStep['kind']> = new Set(['wait', 'approval', 'event_wait']);
/** Attempts to reach a gate that ends as it is asked (each either signals it or starts it). */
const REACH_ATTEMPTS = 5;

export class RunSlots {
  private held = false;
  private granted = false;
  /** The memo says the run waits. */
  private marked = false;
  /** Steps running that need the slot, and waits in progress. */
  private active = 0;
  private waits = 0;
  private acquiring: Promise<void> | undefined;
  private readonly gateId: string;
  private readonly run: string;

  /**
   * `request`: the run's group, limit and owner cap (without the run id). `onQueued` reports a
   * change of the waiting state to the run's progress.
   */
  constructor(
    private readonly ownerId: string,
    private readonly request: Omit<SlotRequest, 'run' | 'resume'>,
    private readonly onQueued: (queued: boolean) => void,
  ) {
    this.gateId = gateIdOf(ownerId);
    this.run = workflowInfo().workflowId;
    setHandler(slotGrantedSignal, () => {
      this.granted = true;
    });
    // Told to wait: the memo says so too (run lists read it without asking the worker).
    setHandler(slotWaitingSignal, () => {
      if (this.granted || this.marked || !this.acquiring) return;
      this.marked = true;
      upsertMemo({ [QUEUED_MEMO_KEY]: true });
    });
    setHandler(slotCheckSignal, () => undefined);
  }

  /**
   * Takes a slot, waiting in the queue as long as it takes (a cancellation ends the wait). Steps
   * of a parallel group that need it at the same time share one request.
   */
  acquire(resume = false): Promise<void> {
    this.acquiring ??= this.take(resume).finally(() => {
      this.acquiring = undefined;
    });
    return this.acquiring;
  }

  private async take(resume: boolean): Promise<void> {
    this.granted = false;
    this.onQueued(true);
    const req: SlotRequest = { run: this.run, ...this.request, ...(resume && { resume: true }) };
    try {
      await this.ask(req);
      await condition(() => this.granted);
    } finally {
      this.onQueued(false);
      if (this.marked) {
        this.marked = false;
        upsertMemo({ [QUEUED_MEMO_KEY]: null });
      }
    }
    this.held = true;
  }

  /**
   * Gives the slot (or the waiting request) back; never cancelled, never fails the run. Awaited
   * even at the run's end: a signal whose run closes in the same workflow task is not delivered.
   */
  async release(): Promise<void> {
    this.held = false;
    this.granted = false;
    await CancellationScope.nonCancellable(async () => {
      try {
        await getExternalWorkflowHandle(this.gateId).signal(slotReleaseSignal, { run: this.run });
      } catch {
        // The gate is gone: it holds nothing for this run any more.
      }
    });
  }

  /** Runs one step's body: a wait may give the slot back; any other step needs it. */
  async around<T>(step: PlanStep, body: () => Promise<T>): Promise<T> {
    if (step.kind === 'parallel') return body();
    if (WAITS.has(step.kind)) {
      this.waits += 1;
      if (this.held && this.active === 0) await this.release();
      try {
        return await body();
      } finally {
        this.waits -= 1;
      }
    }
    if (!this.held) await this.acquire(true);
    this.active += 1;
    try {
      return await body();
    } finally {
      this.active -= 1;
      if (this.held && this.active === 0 && this.waits > 0) await this.release();
    }
  }

  /** Signals the gate, starting it when it is not running. */
  private async ask(req: SlotRequest): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await getExternalWorkflowHandle(this.gateId).signal(slotAcquireSignal, req);
        return;
      } catch (err) {
        if (attempt >= REACH_ATTEMPTS) throw err;
      }
      try {
        await CancellationScope.nonCancellable(async () => {
          const gate = await startChild(runGate, {
            workflowId: this.gateId,
            args: [{ ownerId: this.ownerId, first: req }],
            parentClosePolicy: ParentClosePolicy.ABANDON,
            cancellationType: ChildWorkflowCancellationType.ABANDON,
          });
          // Its end is none of this run's business.
          gate.result().catch(() => undefined);
        });
        return;
      } catch {
        // Another run started it meanwhile: signal it.
      }
    }
  }
}
