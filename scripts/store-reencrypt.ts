/**
 * `npm run store:reencrypt`: re-seals every sealed value of the platform store under the active
 * (first) key of SKILLFLOW_ENCRYPTION_KEY, upgrading values from the old context-free format.
 * Safe to run while the service runs, and to repeat. Prints counts only, never values.
 */
import path from 'node:path';
import { loadConfig } from '../lib/config.js';
import { loadKeyring } from '../lib/crypto/keyring.js';
import { openStore } from '../lib/store/db.js';
import { reencryptStore } from '../lib/store/reencrypt.js';

const config = loadConfig();
const keyring = loadKeyring(config.security.SKILLFLOW_ENCRYPTION_KEY, config.process.dataDir);
const store = await openStore({
  databaseUrl: config.store.DATABASE_URL,
  pgliteDir: path.join(config.process.dataDir, 'pglite'),
});
try {
  const report = await reencryptStore(store, keyring);
  process.stdout.write(`store re-encrypted under key ${keyring.activeKeyId}\n`);
  for (const [column, counts] of Object.entries(report))
    process.stdout.write(`  ${column}: ${counts.resealed} re-sealed, ${counts.current} already current\n`);
} finally {
  await store.close();
}
