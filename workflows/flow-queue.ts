/**
 * The state of one owner's run gate (flow-gate.ts) and its rules, as pure functions: which runs
 * hold a slot, which wait, in what order, and who is next. Deterministic workflow code.
 *
 * A run asks for a slot with its concurrency group (its definition and rendered key, when its
 * definition declares `concurrency`) and whether it counts toward the owner's cap. A request is
 * granted when its group holds fewer slots than the group's limit and, if it counts toward the
 * owner, the owner's runs hold fewer than the cap. Waiting requests are served in arrival order;
 * one that cannot be granted does not block a later one that can (a full key never holds up
 * another key). A run that gave its slot back while it waited (a wait, approval or event step)
 * asks again at the front of the queue.
 */

/** One run's request for a slot. */
export interface SlotRequest {
  /** The run's workflow id (its task id). */
  run: string;
  /** Its definition's id and rendered concurrency key; absent without `concurrency`. */
  group?: string;
  /** The group's limit, as the run's snapshot declares it (the newest request's limit applies). */
  limit?: number;
  /** The owner's cap as the run was started with it; absent: the run does not count toward it. */
  ownerCap?: number;
  /** A run taking its slot back after a wait: it queues before every new run. */
  resume?: boolean;
}

/** A run that holds a slot. */
export interface SlotHolder {
  run: string;
  group?: string;
  countsOwner: boolean;
}

export interface GateState {
  holders: SlotHolder[];
  /** Waiting requests, in the order they are served. */
  queue: SlotRequest[];
  /** The newest limit of every group with a holder or a waiting request. */
  limits: Record<string, number>;
  /** The owner's cap (0: none), from the newest request that carried one. */
  ownerCap: number;
  /** Waiting runs already told that they wait (so they are told once). */
  told: string[];
}

/** Why a run waits: its concurrency key is full, or the owner's runs are. */
export type QueueReason = 'concurrency' | 'owner_cap';

/** A waiting run's place: 1 is next. */
export interface QueuePlace {
  position: number;
  reason: QueueReason;
}

export function emptyGate(): GateState {
  return { holders: [], queue: [], limits: {}, ownerCap: 0, told: [] };
}

/** Adds a request; a run that already holds a slot or waits is not added twice. */
export function enqueue(state: GateState, req: SlotRequest): void {
  if (req.group !== undefined && req.limit !== undefined) state.limits[req.group] = req.limit;
  if (req.ownerCap !== undefined) state.ownerCap = req.ownerCap;
  if (state.holders.some((h) => h.run === req.run) || state.queue.some((q) => q.run === req.run)) return;
  if (!req.resume) {
    state.queue.push(req);
    return;
  }
  const firstNew = state.queue.findIndex((q) => !q.resume);
  state.queue.splice(firstNew < 0 ? state.queue.length : firstNew, 0, req);
}

/** Removes a run's slot or its waiting request (a run that ended, or gave its slot back). */
export function release(state: GateState, run: string): void {
  state.holders = state.holders.filter((h) => h.run !== run);
  state.queue = state.queue.filter((q) => q.run !== run);
  state.told = state.told.filter((r) => r !== run);
  const used = new Set([...state.holders, ...state.queue].flatMap((x) => (x.group ? [x.group] : [])));
  for (const group of Object.keys(state.limits)) if (!used.has(group)) delete state.limits[group];
}

function counts(state: GateState): { owner: number; groups: Map<string, number> } {
  const groups = new Map<string, number>();
  let owner = 0;
  for (const h of state.holders) {
    if (h.countsOwner) owner += 1;
    if (h.group !== undefined) groups.set(h.group, (groups.get(h.group) ?? 0) + 1);
  }
  return { owner, groups };
}

/** What keeps a request waiting now, or undefined when it could be granted. */
function blocker(state: GateState, req: SlotRequest, c: ReturnType<typeof counts>): QueueReason | undefined {
  if (req.group !== undefined && (c.groups.get(req.group) ?? 0) >= (state.limits[req.group] ?? 1))
    return 'concurrency';
  if (req.ownerCap !== undefined && state.ownerCap > 0 && c.owner >= state.ownerCap) return 'owner_cap';
  return undefined;
}

/** Grants every waiting request that fits, in order; answers the runs granted. */
export function grant(state: GateState): string[] {
  const c = counts(state);
  const granted: string[] = [];
  const waiting: SlotRequest[] = [];
  for (const req of state.queue) {
    if (blocker(state, req, c) !== undefined) {
      waiting.push(req);
      continue;
    }
    const holder: SlotHolder = { run: req.run, countsOwner: req.ownerCap !== undefined };
    if (req.group !== undefined) holder.group = req.group;
    state.holders.push(holder);
    if (holder.countsOwner) c.owner += 1;
    if (req.group !== undefined) c.groups.set(req.group, (c.groups.get(req.group) ?? 0) + 1);
    granted.push(req.run);
  }
  state.queue = waiting;
  state.told = state.told.filter((r) => !granted.includes(r));
  return granted;
}

/** Waiting runs not yet told that they wait; they count as told from now on. */
export function untold(state: GateState): string[] {
  const fresh = state.queue.map((q) => q.run).filter((r) => !state.told.includes(r));
  state.told.push(...fresh);
  return fresh;
}

/**
 * A waiting run's place: 1 + the requests before it that wait for the same thing (its key, or
 * the owner's cap). Undefined for a run that holds a slot or is unknown.
 */
export function placeOf(state: GateState, run: string): QueuePlace | undefined {
  const at = state.queue.findIndex((q) => q.run === run);
  if (at < 0) return undefined;
  const req = state.queue[at]!;
  const reason = blocker(state, req, counts(state)) ?? 'concurrency';
  const ahead = state.queue
    .slice(0, at)
    .filter((q) =>
      reason === 'concurrency' ? q.group === req.group : q.ownerCap !== undefined || q.group === req.group,
    ).length;
  return { position: ahead + 1, reason };
}

/** Whether the gate has nothing to keep. */
export function idle(state: GateState): boolean {
  return state.holders.length === 0 && state.queue.length === 0;
}
