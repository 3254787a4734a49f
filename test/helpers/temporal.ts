/**
 * A real Temporal dev server for integration tests, via TestWorkflowEnvironment.createLocal with
 * the binary found by lib/temporal/cli.ts, with our search attributes and payload codec.
 */
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { PROJECT_ROOT } from '../../lib/config.js';
import type { Keyring } from '../../lib/crypto/keyring.js';
import { TEST_KEYRING } from './fixtures.js';
import { dataConverterFor } from '../../lib/temporal/client.js';
import { provisionFromEnv } from '../../lib/temporal/cli.js';
import { SEARCH_ATTRIBUTES } from '../../lib/temporal/search-attributes.js';

export { TEST_KEYRING };

export async function startTestTemporal(keyring: Keyring = TEST_KEYRING): Promise<TestWorkflowEnvironment> {
  // test/global-setup.ts provisions once and exports TEMPORAL_CLI_PATH, so this is instant.
  const cliPath = (await provisionFromEnv(PROJECT_ROOT)).path;
  return TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: cliPath },
      ip: '127.0.0.1',
      searchAttributes: SEARCH_ATTRIBUTES,
      log: { format: 'pretty', level: 'error' },
    },
    client: { dataConverter: dataConverterFor(keyring) },
  });
}
