/**
 * The platform store's two engines for tests that must prove their SQL on both: embedded PGlite
 * and a real PostgreSQL server (started on loopback; CI installs it in .ci/run). A developer
 * machine without PostgreSQL runs the PGlite half only.
 */
import { afterAll, beforeAll } from 'vitest';
import { openStore, type Store } from '../../lib/store/db.js';
import { postgresAvailable, startTestPostgres } from './postgres.js';

export interface StoreEngine {
  name: 'pglite' | 'postgresql';
  /** Opens a migrated store; `done` stops whatever was started for it. */
  open: () => Promise<{ store: Store; done: () => void }>;
}

export function storeEngines(): StoreEngine[] {
  const engines: StoreEngine[] = [
    {
      name: 'pglite',
      open: async () => ({ store: await openStore({ pgliteDir: 'memory://' }), done: () => undefined }),
    },
  ];
  if (process.env.CI === 'true' || postgresAvailable()) {
    engines.push({
      name: 'postgresql',
      open: async () => {
        const server = await startTestPostgres();
        return { store: await openStore({ databaseUrl: server.url }), done: () => server.stop() };
      },
    });
  }
  return engines;
}

/**
 * Opens the engine's store before the suite and closes it (and its server) after; returns a
 * getter for use inside the tests.
 */
export function useEngineStore(engine: StoreEngine): () => Store {
  let store: Store | undefined;
  let done: (() => void) | undefined;
  beforeAll(async () => {
    ({ store, done } = await engine.open());
  });
  afterAll(async () => {
    await store?.close();
    done?.();
  });
  return () => {
    if (!store) throw new Error('store not open yet');
    return store;
  };
}
