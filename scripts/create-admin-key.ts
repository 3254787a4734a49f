/**
 * `npm run keys:admin`: creates an operator key with the `admin` scope (health details) straight
 * in the platform store, since no tenant key may grant `admin`. Uses the same configuration as
 * the service (DATABASE_URL, or the embedded store under DATA_DIR); prints the token once.
 */
import path from 'node:path';
import { ConfigError, loadConfig } from '../lib/config.js';
import { createKey } from '../lib/keys.js';
import { openStore } from '../lib/store/db.js';

try {
  const config = loadConfig();
  const store = await openStore({
    databaseUrl: config.store.DATABASE_URL,
    pgliteDir: path.join(config.process.dataDir, 'pglite'),
  });
  try {
    const key = await createKey(store, { name: 'operator', scopes: ['admin'], ownerId: 'operator' });
    process.stderr.write('admin key created; this is the only time the token is shown:\n');
    process.stdout.write(`${key.token}\n`);
  } finally {
    await store.close();
  }
} catch (err) {
  process.stderr.write(`${err instanceof ConfigError ? err.message : 'could not create the key'}\n`);
  process.exitCode = 2;
}
