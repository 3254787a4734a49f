/**
 * `npm run keys:admin`: creates an operator key with the `admin` scope (health details) straight
 * in the platform store, since no tenant key may grant `admin`. Uses the same configuration as
 * the service (DATABASE_URL, or the embedded store under DATA_DIR); prints the token once.
 * Tenant keys come from `npm run keys:create` (scripts/create-key.ts).
 */
import { createKey } from '../lib/keys.js';
import { withConfiguredStore } from './configured-store.js';

await withConfiguredStore('could not create the key', async (store) => {
  const key = await createKey(store, { name: 'operator', scopes: ['admin'], ownerId: 'operator' });
  process.stderr.write('admin key created; this is the only time the token is shown:\n');
  process.stdout.write(`${key.token}\n`);
});
