/**
 * `npm run limits:apply`: records this environment's limit settings in the platform store as the
 * ones every process on it enforces (lib/limits/settings.ts). Run it with the new values when
 * changing a limit deliberately, then restart every process with the same values. Prints the
 * variables that changed, with their old and new limit numbers (never a secret).
 */
import path from 'node:path';
import { loadConfig } from '../lib/config.js';
import { applyLimitSettings, SHARED_LIMIT_VARIABLES } from '../lib/limits/settings.js';
import { openStore } from '../lib/store/db.js';

const config = loadConfig();
const store = await openStore({
  databaseUrl: config.store.DATABASE_URL,
  pgliteDir: path.join(config.process.dataDir, 'pglite'),
});
try {
  const changed = await applyLimitSettings(store, config);
  process.stdout.write(`limit settings recorded (${SHARED_LIMIT_VARIABLES.length} variables)\n`);
  for (const c of changed) process.stdout.write(`  ${c.name}: ${c.recorded ?? '(none)'} -> ${c.current}\n`);
  if (changed.length === 0) process.stdout.write('  nothing changed\n');
} finally {
  await store.close();
}
