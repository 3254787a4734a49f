/** The workflow bundle, built once per process (building it takes seconds). */
import path from 'node:path';
import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { FAILURE_CONVERTER_PATH } from '../lib/temporal/client.js';
import { WORKFLOW_TRACING_MODULE } from '../lib/tracing/temporal.js';

export const WORKFLOWS_PATH = path.resolve(import.meta.dirname, '../workflows/index.ts');

const bundles = new Map<boolean, Promise<WorkflowBundle>>();

/**
 * The workflow bundle, built once per process (it takes seconds); `traced` adds the
 * OpenTelemetry workflow interceptors (lib/tracing/temporal.ts), which only a worker that
 * registers their span sink may run.
 */
export function workflowBundle(traced = false): Promise<WorkflowBundle> {
  let bundle = bundles.get(traced);
  if (!bundle) {
    bundle = bundleWorkflowCode({
      workflowsPath: WORKFLOWS_PATH,
      failureConverterPath: FAILURE_CONVERTER_PATH,
      ...(traced ? { workflowInterceptorModules: [WORKFLOW_TRACING_MODULE] } : {}),
      logger: quietBundlerLogger,
    });
    bundles.set(traced, bundle);
  }
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
