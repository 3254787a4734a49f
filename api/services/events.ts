/**
 * `POST /v1/events`: an owner's event resumes the owner's runs whose `wait_for_event` step waits
 * for it, and starts the owner's definitions whose trigger is `start_when.event` of its name.
 *
 * Nothing is done until everything is checked: the data fields a definition declares as run
 * inputs are validated as such for every definition it would start (the first that refuses
 * answers 400 with the failing path and the definition's id; fields it does not declare are not
 * its inputs), and the caller needs the scopes each of them needs. Then the waits are found
 * through the event index (two indexed reads, never a scan of runs: lib/store/owners/event-waits.ts)
 * and signalled, and the runs are started. Events are not buffered: only runs already waiting
 * are resumed. An event never reaches another owner's runs: every read is scoped to the owner.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import type { Keyring } from '../../lib/crypto/keyring.js';
import { dataMatchHash, eventKey } from '../../lib/events/event-index-keys.js';
import type { Limits } from '../../lib/limits/index.js';
import type { Principal } from '../../lib/keys.js';
import type { Store } from '../../lib/store/db.js';
import {
  matchingWaits,
  releaseEventWait,
  sweepEventWaits,
  waitFieldSets,
} from '../../lib/store/owners/event-waits.js';
import type { TemporalClient } from '../../lib/temporal/client.js';
import { eventSignal } from '../../workflows/event-waits.js';
import { requireNamedScope, requirePlanScopes } from '../scopes.js';
import type { DefinitionsService, StoredDefinition } from './definitions.js';
import type { ResolvedChildren } from './child-definitions.js';
import { checkedRunInputs, declaredFields } from './run-inputs.js';
import type { RunsService } from './runs.js';

/** The most waiting runs one event resumes (the longest-waiting first). */
export const MAX_RESUMED_PER_EVENT = 1_000;
/** Signals sent at once. */
const SIGNAL_CONCURRENCY = 16;
/** A wait row whose run ended without removing it is swept this long after its expiry. */
const SWEEP_GRACE_MS = 3_600_000;
/** Sweeps run at most this often per API process, after an event. */
const SWEEP_EVERY_MS = 60_000;

export interface SentEvent {
  name: string;
  data: Record<string, unknown>;
}

export class EventsService {
  constructor(
    private readonly temporal: TemporalClient,
    private readonly store: Store,
    private readonly keyring: Keyring,
    private readonly definitions: DefinitionsService,
    private readonly runs: RunsService,
    private readonly limits: Pick<Limits, 'charge'>,
  ) {}

  async send(principal: Principal, event: SentEvent): Promise<{ resumed: number; started: number }> {
    requireNamedScope(principal, 'workflows');
    const ownerId = principal.ownerId;
    const starts = await this.checkedStarts(principal, event);
    // The owner's running-runs cap, checked once before anything happens (an event starts at
    // most MAX_EVENT_DEFINITIONS runs, so it may pass the cap by fewer than that).
    if (starts.length > 0) await this.limits.charge('owner_quota', { ownerId, quota: 'running_runs' });
    const resumed = await this.resume(ownerId, event);
    let started = 0;
    for (const s of starts) {
      await this.runs.startRun(s.def, s.inputs, s.children, 'event', undefined, principal);
      started += 1;
    }
    this.sweepSometimes();
    return { resumed, started };
  }

  private lastSweep = 0;

  /** Removes waits long expired (runs that ended without removing theirs), at most once a minute. */
  private sweepSometimes(): void {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    void sweepEventWaits(this.store, SWEEP_GRACE_MS).catch(() => undefined);
  }

  /** Every definition the event starts, its data checked as its run inputs and the caller's scopes. */
  private async checkedStarts(
    principal: Principal,
    event: SentEvent,
  ): Promise<Array<{ def: StoredDefinition; inputs: Record<string, unknown>; children: ResolvedChildren }>> {
    const defs = await this.definitions.startedByEvent(principal.ownerId, event.name);
    const out = [];
    for (const def of defs) {
      const inputs = checkedRunInputs(def.plan, declaredFields(def.plan, event.data), {
        root: 'data',
        details: { definition_id: def.id },
      });
      const children = await this.runs.resolveChildren(def.ownerId, def.plan, def.id);
      requirePlanScopes(principal, def.plan, children, this.runs.optionRules);
      out.push({ def, inputs, children });
    }
    return out;
  }

  /** Signals the owner's waits the event fits; answers how many runs took it. */
  private async resume(ownerId: string, event: SentEvent): Promise<number> {
    const key = eventKey(this.keyring, event.name);
    const hashes = [];
    for (const fields of await waitFieldSets(this.store, ownerId, key)) {
      const hash = dataMatchHash(this.keyring, event.name, fields, event.data);
      if (hash) hashes.push({ fields, hash });
    }
    const waits = await matchingWaits(this.store, ownerId, key, hashes, MAX_RESUMED_PER_EVENT);
    let resumed = 0;
    let next = 0;
    const worker = async () => {
      while (next < waits.length) {
        const w = waits[next++]!;
        try {
          await this.temporal.client.workflow
            .getHandle(w.workflowId)
            .signal(eventSignal, { step: w.stepId, name: event.name, data: event.data });
          resumed += 1;
        } catch (err) {
          // The run ended without removing its wait: remove it now.
          if (!(err instanceof WorkflowNotFoundError)) throw err;
          await releaseEventWait(this.store, w.workflowId, w.stepId);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(SIGNAL_CONCURRENCY, waits.length) }, worker));
    return resumed;
  }
}
