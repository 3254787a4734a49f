/**
 * A definition's Temporal Schedule, written in definition-version order. Every API process may
 * save a definition and sync its schedule, so two syncs can race; a schedule is only ever moved
 * forward: it holds the version it runs in its action's input (`definitionVersion`), and an
 * update is a compare-and-set on it. The sync describes the schedule, stops when it already runs
 * this version or a newer one, and else sends the update with the describe's conflict token
 * (Temporal drops an update whose token is stale), then describes again and tries anew until the
 * schedule runs at least this version. Removing a schedule (the trigger is no longer a schedule)
 * leaves one that runs a newer version alone.
 *
 * The Temporal SDK's `handle.update` sends no conflict token, so the update request is built here
 * with the SDK's own encoders.
 */
import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  type Client,
  type ScheduleDescription,
  type ScheduleOptions,
  type ScheduleOptionsAction,
  type ScheduleUpdateOptions,
} from '@temporalio/client';
import {
  compileUpdatedScheduleOptions,
  encodeScheduleAction,
  encodeSchedulePolicies,
  encodeScheduleSpec,
  encodeScheduleState,
} from '@temporalio/client/lib/schedule-helpers.js';
import type { LoadedDataConverter } from '@temporalio/common';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { errors } from '../../lib/errors/errors.js';

/** Compare-and-set rounds before the sync gives up (each lost round means another sync won). */
export const SCHEDULE_SYNC_ROUNDS = 20;

/** What the action's first argument carries: the run input's definition version. */
const VersionedInput = z.object({ definitionVersion: z.number().int() });

/** The definition version a described schedule runs, or undefined when it names none. */
export function scheduleVersion(desc: ScheduleDescription): number | undefined {
  if (desc.action.type !== 'startWorkflow') return undefined;
  const parsed = VersionedInput.safeParse(desc.action.args?.[0]);
  return parsed.success ? parsed.data.definitionVersion : undefined;
}

/** The schedule as one version of a definition wants it. */
export type WantedSchedule = Omit<ScheduleOptions<ScheduleOptionsAction>, 'scheduleId' | 'state'> & {
  version: number;
};

/** gRPC NOT_FOUND: the schedule went away between the describe and the update. */
function isNotFound(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 5;
}

/** The schedule client's loaded data converter (the SDK keeps it protected). */
function dataConverterOf(client: Client): LoadedDataConverter {
  return (client.schedule as unknown as { dataConverter: LoadedDataConverter }).dataConverter;
}

/** Sends `wanted` as the schedule's new state, only if nobody changed it since `current`. */
async function updateIfUnchanged(
  client: Client,
  scheduleId: string,
  current: ScheduleDescription,
  wanted: WantedSchedule,
): Promise<void> {
  const options: ScheduleUpdateOptions = {
    spec: wanted.spec,
    action: wanted.action,
    policies: wanted.policies,
    state: current.state,
  };
  const compiled = compileUpdatedScheduleOptions(scheduleId, options);
  const header = current.raw.schedule?.action?.startWorkflow?.header?.fields ?? {};
  const namespace = client.options.namespace;
  await client.workflowService.updateSchedule({
    namespace,
    scheduleId,
    schedule: {
      spec: encodeScheduleSpec(compiled.spec),
      action: await encodeScheduleAction(dataConverterOf(client), namespace, compiled.action, header),
      policies: encodeSchedulePolicies(compiled.policies),
      state: encodeScheduleState(compiled.state),
    },
    conflictToken: current.raw.conflictToken ?? null,
    identity: client.options.identity,
    requestId: randomUUID(),
  });
}

/**
 * Makes the schedule run `wanted.version` or a newer one: creates it when there is none,
 * compare-and-sets it when it runs an older version, leaves it when it runs this one or newer.
 */
export async function syncScheduleVersion(
  client: Client,
  scheduleId: string,
  wanted: WantedSchedule,
): Promise<void> {
  const { version, ...options } = wanted;
  const handle = client.schedule.getHandle(scheduleId);
  for (let round = 0; round < SCHEDULE_SYNC_ROUNDS; round++) {
    let current: ScheduleDescription;
    try {
      current = await handle.describe();
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
      try {
        await client.schedule.create({ scheduleId, ...options });
        return;
      } catch (created) {
        if (created instanceof ScheduleAlreadyRunning) continue; // another sync created it first
        throw created;
      }
    }
    const running = scheduleVersion(current);
    if (running !== undefined && running >= version) return;
    try {
      await updateIfUnchanged(client, scheduleId, current, wanted);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      continue;
    }
    // A stale conflict token makes Temporal drop the update silently: check what it runs now.
    const after = await handle.describe().catch((err: unknown) => {
      if (err instanceof ScheduleNotFoundError) return undefined;
      throw err;
    });
    const now = after && scheduleVersion(after);
    if (now !== undefined && now >= version) return;
  }
  throw errors.serviceUnavailable('The schedule could not be brought up to date; save the workflow again.');
}

/** Deletes the schedule unless it runs a version newer than `version`. */
export async function deleteScheduleUpTo(client: Client, scheduleId: string, version: number): Promise<void> {
  const handle = client.schedule.getHandle(scheduleId);
  try {
    const running = scheduleVersion(await handle.describe());
    if (running !== undefined && running > version) return;
    await handle.delete();
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
}
