/**
 * A second worker for a benchmark's hand-written baseline: the workflows of one file under
 * bench/workflows/, the platform's own activities, the same payload codec, its own task queue.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Worker, bundleWorkflowCode, NativeConnection } from '@temporalio/worker';
import { dataConverterFor } from '../lib/temporal/client.js';
import type { EngineHarness } from '../test/helpers/engine.js';
import { TEST_KEYRING } from '../test/helpers/fixtures.js';

export interface BareWorker {
  taskQueue: string;
  close(): Promise<void>;
}

export async function startBareWorker(h: EngineHarness, file: string): Promise<BareWorker> {
  const taskQueue = `bare-${randomUUID()}`;
  const connection = await NativeConnection.connect({ address: h.env.address });
  const worker = await Worker.create({
    connection,
    taskQueue,
    workflowBundle: await bundleWorkflowCode({
      workflowsPath: path.resolve(import.meta.dirname, 'workflows', file),
      logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    }),
    activities: h.api.platform.activities,
    dataConverter: dataConverterFor(TEST_KEYRING),
  });
  const done = worker.run();
  return {
    taskQueue,
    async close() {
      worker.shutdown();
      await done;
      await connection.close();
    },
  };
}
