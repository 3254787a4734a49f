/**
 * Development bootstrap: without any API key nobody could call the API on a fresh clone, so
 * outside production `npm start` keeps one admin key (scopes `*`, `admin` and `icons:all-licenses`) for the dev owner and writes
 * its token to DATA_DIR/dev-api-key (mode 0600). The CLI reads it from there by default.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createKey, verifyToken } from './keys.js';
import type { Store } from './store/db.js';

export function devKeyFile(dataDir: string): string {
  return path.join(dataDir, 'dev-api-key');
}

/**
 * The token kept in `file`: the stored one while it still verifies, else a new key made with
 * `spec` and written there (mode 0600).
 */
export async function ensureKeyFile(
  store: Store,
  file: string,
  spec: Parameters<typeof createKey>[1],
): Promise<string> {
  if (existsSync(file)) {
    const token = readFileSync(file, 'utf8').trim();
    if (await verifyToken(store, token)) return token;
  }
  const key = await createKey(store, spec);
  writeFileSync(file, key.token + '\n', { mode: 0o600 });
  return key.token;
}

export async function ensureDevKey(store: Store, dataDir: string, ownerId: string): Promise<string> {
  const file = devKeyFile(dataDir);
  await ensureKeyFile(store, file, {
    name: 'development admin key',
    scopes: ['*', 'admin', 'icons:all-licenses'],
    ownerId,
    tier: 'pro',
  });
  return file;
}
