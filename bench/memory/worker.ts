/**
 * The worker process of `bench/memory.bench.ts`: the production workflow bundle and data
 * converter on the given task queue, with no activities (so every run waits on its first
 * activity, idle in the cache like a run waiting on a timer). Answers `{ rss, heapUsed, cached }`
 * after a full GC to every `measure` message from its parent.
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { createLogger } from '../../lib/logger.js';
import { dataConverterFor } from '../../lib/temporal/client.js';
import { installTemporalRuntime } from '../../lib/temporal/runtime.js';
import { TEST_KEYRING } from '../../test/helpers/fixtures.js';
import { workflowBundle } from '../../worker/index.js';

installTemporalRuntime(createLogger('error'));
const [address = '', taskQueue = '', maxCached = '1000'] = process.argv.slice(2);
const connection = await NativeConnection.connect({ address });
const worker = await Worker.create({
  connection,
  taskQueue,
  workflowBundle: await workflowBundle(),
  dataConverter: dataConverterFor(TEST_KEYRING),
  maxCachedWorkflows: Number(maxCached),
});
const done = worker.run();

process.on('message', (msg) => {
  if (msg === 'measure') {
    (globalThis as { gc?: () => void }).gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    process.send!({ rss, heapUsed, cached: worker.getStatus().numCachedWorkflows });
  } else if (msg === 'stop') {
    worker.shutdown();
    void done.finally(() => connection.close().finally(() => process.exit(0)));
  }
});
process.send!('ready');
