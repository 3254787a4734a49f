/**
 * The development key file: kept while its key verifies with the scopes the code grants it, made
 * again (and the stale key revoked) when they changed or the key is gone.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDevKey, ensureKeyFile } from './dev-key.js';
import { createKey, verifyToken } from './keys.js';
import { openStore, type Store } from './store/db.js';

describe('the development key file', () => {
  let store: Store;
  let dir: string;
  beforeAll(async () => {
    store = await openStore({ pgliteDir: 'memory://' });
    dir = mkdtempSync(path.join(tmpdir(), 'dev-key-'));
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is written once (mode 0600) and kept while its key holds the granted scopes', async () => {
    const { file, token } = await ensureDevKey(store, dir, 'owner_dev');
    expect(readFileSync(file, 'utf8').trim()).toBe(token);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await verifyToken(store, token))?.scopes).toEqual(['*', 'admin', 'icons:all-licenses']);
    await ensureDevKey(store, dir, 'owner_dev');
    expect(readFileSync(file, 'utf8').trim()).toBe(token);
  });

  it('replaces a key whose scopes differ from the granted ones, and revokes it', async () => {
    const file = path.join(dir, 'older-key');
    const older = await createKey(store, { name: 'older', scopes: ['*', 'admin'], ownerId: 'owner_dev' });
    writeFileSync(file, older.token + '\n');
    const token = await ensureKeyFile(store, file, {
      name: 'development admin key',
      scopes: ['*', 'admin', 'icons:all-licenses'],
      ownerId: 'owner_dev',
    });
    expect(token).not.toBe(older.token);
    expect(readFileSync(file, 'utf8')).toBe(`${token}\n`);
    expect(await verifyToken(store, older.token)).toBeUndefined();
    expect((await verifyToken(store, token))?.scopes).toEqual(['*', 'admin', 'icons:all-licenses']);
  });

  it('replaces a token that no longer verifies', async () => {
    const file = path.join(dir, 'gone-key');
    writeFileSync(file, 'sf_k0000000000000000_' + 'x'.repeat(43) + '\n');
    const token = await ensureKeyFile(store, file, { name: 'k', scopes: ['*'], ownerId: 'owner_dev' });
    expect((await verifyToken(store, token))?.ownerId).toBe('owner_dev');
  });
});
