/** The workflow bundle, built once per process (building it takes seconds). */
import path from 'node:path';
import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { FAILURE_CONVERTER_PATH } from '../lib/temporal/client.js';

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
