/**
 * Entry module of the worker: one Temporal worker on the skillflow task queue with every
 * workflow and activity, and the payload codec. Workflow code is bundled once per process.
 */
import path from 'node:path';
import { bundleWorkflowCode, NativeConnection, Worker, type WorkflowBundle } from '@temporalio/worker';
import { createActivities } from '../activities/index.js';
import type { Registry } from '../activities/registry/registry.js';
import type { Keyring } from '../lib/crypto/keyring.js';
import type { Limits } from '../lib/limits/index.js';
import type { UsageRecords } from '../lib/store/owners/usage-records.js';
import { dataConverterFor, FAILURE_CONVERTER_PATH } from '../lib/temporal/client.js';

export const WORKFLOWS_PATH = path.resolve(import.meta.dirname, '../workflows/index.ts');

let bundle: Promise<WorkflowBundle> | undefined;

/** The workflow bundle, built once per process (it takes seconds). */
export function workflowBundle(): Promise<WorkflowBundle> {
  bundle ??= bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    failureConverterPath: FAILURE_CONVERTER_PATH,
    logger: quietBundlerLogger,
  });
  return bundle;
}

const quietBundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: (message: string) => process.stderr.write(`workflow bundler: ${message}\n`),
};

export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  keyring: Keyring;
  registry: Registry;
  /** Extra activities (platform activities such as chat delivery). */
  extraActivities?: Record<string, (...args: never[]) => Promise<unknown>>;
  maxConcurrentActivityTaskExecutions?: number;
  /**
   * Open runs kept in the worker's cache (WORKER_MAX_CACHED_WORKFLOWS); an evicted run is
   * replayed from its history on its next task. Unset: the SDK's default, sized from the heap.
   */
  maxCachedWorkflows?: number;
  /**
   * The limits skill activities charge per upstream request (lib/limits/index.ts): each
   * provider's limit per skill and model, and each owner's share of it first (unset: no
   * share). Unset = none.
   */
  limits?: WorkerLimits;
  /** Usage records: a skill-call task's decision usage is written on its record; unset = not. */
  usage?: UsageRecords;
}

/** The parts of {@link Limits} the worker charges. */
export type WorkerLimits = Pick<Limits, 'providers'> & Partial<Pick<Limits, 'ownerShare'>>;

export interface RunningWorker {
  worker: Worker;
  /** Resolves when the worker has stopped. */
  done: Promise<void>;
  shutdown(): Promise<void>;
}

export async function startWorker(opts: WorkerOptions): Promise<RunningWorker> {
  const connection = await NativeConnection.connect({ address: opts.address });
  const worker = await Worker.create({
    connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    workflowBundle: await workflowBundle(),
    activities: {
      ...createActivities(opts.registry, opts.limits?.providers, opts.limits?.ownerShare, opts.usage),
      ...opts.extraActivities,
    },
    dataConverter: dataConverterFor(opts.keyring),
    maxConcurrentActivityTaskExecutions: opts.maxConcurrentActivityTaskExecutions ?? 50,
    // A heartbeat's details (a long-running skill's stage) reach the server within a second,
    // not 0.8 × the heartbeat timeout later; skills heartbeat only on a stage change or their
    // policy's interval, so this adds few requests.
    maxHeartbeatThrottleInterval: 1000,
    ...(opts.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: opts.maxCachedWorkflows } : {}),
  });
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
