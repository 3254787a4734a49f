/**
 * `npm run keys:create -- --owner <id> --name <name> --scopes <list> [--tier <tier>]`: creates a
 * tenant key straight in the platform store (the first key of a deployment, which no API call can
 * make). Uses the service's configuration (DATABASE_URL, or the embedded store under DATA_DIR);
 * prints the token once on stdout and nothing secret anywhere else. Exit 2 on bad arguments or
 * configuration, 1 when the store fails.
 */
import { createKey } from '../lib/keys.js';
import { withConfiguredStore } from './configured-store.js';
import { CREATE_KEY_USAGE, parseCreateKeyArgs } from './create-key-args.js';

const parsed = parseCreateKeyArgs(process.argv.slice(2));
if (!parsed.ok) {
  process.stderr.write(`keys:create: ${parsed.problems.join('\nkeys:create: ')}\n${CREATE_KEY_USAGE}\n`);
  process.exitCode = 2;
} else {
  const { owner, name, scopes, tier } = parsed.args;
  await withConfiguredStore('keys:create: could not create the key', async (store) => {
    const key = await createKey(store, { name, scopes, ownerId: owner, tier });
    process.stderr.write(
      `key ${key.id} created (scopes ${scopes.join(',')}, tier ${tier}); this is the only time the token is shown:\n`,
    );
    process.stdout.write(`${key.token}\n`);
  });
}
