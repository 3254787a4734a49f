/**
 * Development bootstrap: without any API key nobody could call the API on a fresh clone, so
 * outside production `npm start` keeps one admin key (scopes `*`, `admin` and `icons:all-licenses`) for the dev owner and writes
 * its token to DATA_DIR/dev-api-key (mode 0600). The CLI reads it from there by default.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createKey, verifyToken, type Principal } from './keys.js';
import { revokeApiKey } from './store/owners/api-keys.js';
import type { Store } from './store/db.js';

export function devKeyFile(dataDir: string): string {
  return path.join(dataDir, 'dev-api-key');
}

/**
 * The token kept in `file`: the stored one while it still verifies and holds exactly the scopes
 * and owner of `spec`, else a new key made with `spec` and written there (mode 0600). A stored
 * key that verifies but no longer matches (a newer version grants the development key other
 * scopes) is revoked once the new one is written.
 */
export async function ensureKeyFile(
  store: Store,
  file: string,
  spec: Parameters<typeof createKey>[1],
): Promise<string> {
  let stale: Principal | undefined;
  if (existsSync(file)) {
    const token = readFileSync(file, 'utf8').trim();
    const held = await verifyToken(store, token);
    if (held && held.ownerId === spec.ownerId && sameScopes(held.scopes, spec.scopes)) return token;
    stale = held;
  }
  const key = await createKey(store, spec);
  writeFileSync(file, key.token + '\n', { mode: 0o600 });
  if (stale) await revokeApiKey(store, stale.ownerId, stale.keyId);
  return key.token;
}

function sameScopes(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join(',') === [...b].sort().join(',');
}

/** The development key: its token and the file that keeps it. */
export async function ensureDevKey(
  store: Store,
  dataDir: string,
  ownerId: string,
): Promise<{ token: string; file: string }> {
  const file = devKeyFile(dataDir);
  const token = await ensureKeyFile(store, file, {
    name: 'development admin key',
    scopes: ['*', 'admin', 'icons:all-licenses'],
    ownerId,
    tier: 'pro',
  });
  return { token, file };
}
