/**
 * Development bootstrap: without any API key nobody could call the API on a fresh clone, so
 * outside production `npm start` keeps one admin key (scopes `*` and `admin`) for the dev owner and writes
 * its token to DATA_DIR/dev-api-key (mode 0600). The CLI reads it from there by default.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createKey, verifyToken } from './keys.js';
import type { Store } from './store/db.js';

export function devKeyFile(dataDir: string): string {
  return path.join(dataDir, 'dev-api-key');
}

export async function ensureDevKey(store: Store, dataDir: string, ownerId: string): Promise<string> {
  const file = devKeyFile(dataDir);
  if (existsSync(file)) {
    const token = readFileSync(file, 'utf8').trim();
    if (await verifyToken(store, token)) return file;
  }
  const key = await createKey(store, {
    name: 'development admin key',
    scopes: ['*', 'admin'],
    ownerId,
    tier: 'pro',
  });
  writeFileSync(file, key.token + '\n', { mode: 0o600 });
  return file;
}
