/**
 * Entry module of the worker: one Temporal worker on the platform's task queue with every workflow,
 * the platform's activities (platform/create-platform.ts) and the payload codec.
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { dataConverterFor, untilTemporalReachable, type TemporalWait } from '../lib/temporal/client.js';
import { workerTracing } from '../lib/tracing/temporal.js';
import type { Platform } from '../platform/create-platform.js';
import { workflowBundle } from './bundle.js';

export { workflowBundle, WORKFLOWS_PATH } from './bundle.js';

export interface WorkerOptions {
  /** The Temporal server's address. */
  address: string;
  /** Default: TEMPORAL_TASK_QUEUE. */
  taskQueue?: string;
  maxConcurrentActivityTaskExecutions?: number;
  /** How long the connection waits for a server that cannot be reached yet; default: it tries once. */
  wait?: TemporalWait;
}
export interface RunningWorker {
  worker: Worker;
  /** Resolves when the worker has stopped. */
  done: Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * Starts a worker of `platform` on the namespace and task queue of its configuration. It keeps
 * WORKER_MAX_CACHED_WORKFLOWS open runs in its cache; an evicted run is replayed from its
 * history on its next task.
 */
export async function startWorker(
  platform: Pick<Platform, 'config' | 'keyring' | 'activities'>,
  opts: WorkerOptions,
): Promise<RunningWorker> {
  const { temporal } = platform.config;
  // Only the connection waits for a server that is not up yet: once connected, any error of the
  // worker's creation (a missing namespace, a refused permission, a bad bundle) ends the start.
  const connection = await untilTemporalReachable(
    () => NativeConnection.connect({ address: opts.address }),
    opts.wait ?? { waitMs: 0 },
  );
  let worker: Worker;
  try {
    // While tracing is on (lib/tracing/), workflows and activities run in spans of their run's trace.
    const tracing = workerTracing();
    worker = await Worker.create({
      connection,
      namespace: temporal.TEMPORAL_NAMESPACE,
      taskQueue: opts.taskQueue ?? temporal.TEMPORAL_TASK_QUEUE,
      workflowBundle: await workflowBundle(tracing !== undefined),
      ...(tracing ? { interceptors: { activity: tracing.activity }, sinks: tracing.sinks } : {}),
      activities: platform.activities,
      dataConverter: dataConverterFor(platform.keyring),
      maxConcurrentActivityTaskExecutions: opts.maxConcurrentActivityTaskExecutions ?? 50,
      // A heartbeat's details (a long-running skill's stage) reach the server within a second,
      // not 0.8 × the heartbeat timeout later; skills heartbeat only on a stage change or their
      // policy's interval, so this adds few requests.
      maxHeartbeatThrottleInterval: 1000,
      maxCachedWorkflows: temporal.WORKER_MAX_CACHED_WORKFLOWS,
    });
  } catch (err) {
    await connection.close();
    throw err;
  }
  const done = worker.run().finally(() => connection.close());
  return {
    worker,
    done,
    async shutdown() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}
