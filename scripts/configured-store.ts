/**
 * The platform store of the service's configuration (DATABASE_URL, or the embedded store under
 * DATA_DIR), for the store-only key scripts. A configuration problem prints its message and exits
 * 2; any other failure prints only `failure` (a driver message may name hosts or users) and exits 1.
 */
import path from 'node:path';
import { ConfigError, loadConfig } from '../lib/config.js';
import { openStore, type Store } from '../lib/store/db.js';

/** Runs `fn` on the configured store and closes it; failures are printed, never thrown. */
export async function withConfiguredStore(
  failure: string,
  fn: (store: Store) => Promise<void>,
): Promise<void> {
  try {
    const config = loadConfig();
    const store = await openStore({
      databaseUrl: config.store.DATABASE_URL,
      pgliteDir: path.join(config.process.dataDir, 'pglite'),
    });
    try {
      await fn(store);
    } finally {
      await store.close();
    }
  } catch (err) {
    process.stderr.write(`${err instanceof ConfigError ? err.message : failure}\n`);
    process.exitCode = err instanceof ConfigError ? 2 : 1;
  }
}
