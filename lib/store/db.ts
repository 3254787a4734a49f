/**
 * The platform store: PostgreSQL-dialect SQL through Kysely, on an embedded PGlite (data under
 * DATA_DIR/pglite) by default or a real PostgreSQL when DATABASE_URL is set. Migrations are
 * applied at open, under Kysely's migration lock, so several replicas can start at once.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, sql, type LogEvent } from 'kysely';
import type { Client as PgClient } from 'pg';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { Database } from './schema.js';
import { migrationProvider } from './migrations/index.js';
import { untilReachable, type StartWait } from '../start-wait.js';
import { isStoreUnreachable } from './unreachable.js';

export type Db = Kysely<Database>;

export interface Store {
  db: Db;
  engine: 'pglite' | 'postgres';
  /** Cheap liveness probe for /v1/health. */
  ping(): Promise<void>;
  /**
   * A new, unconnected PostgreSQL client outside the pool, for a connection that LISTENs
   * (lib/store/listen.ts); absent on PGlite, whose store belongs to one process.
   */
  dedicatedClient?: (applicationName: string) => PgClient;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** postgres:// URL; unset = embedded PGlite. */
  databaseUrl?: string | undefined;
  /** Data directory for PGlite; `memory://` for an in-memory store (tests). */
  pgliteDir?: string;
  migrate?: boolean;
  /**
   * Told when a PostgreSQL connection fails (server restart, network cut), idle or checked out.
   * Every connection has a listener, so such an error never crashes the process; the pool
   * replaces the connection.
   */
  onPoolError?: (err: Error) => void;
  /** Told of every query after it ran, with its duration (tracing: lib/tracing/store-queries.ts). */
  onQuery?: ((event: LogEvent) => void) | undefined;
  /**
   * How long opening waits for a PostgreSQL server that cannot be reached yet (restarting, or
   * started after this process) before it gives up; default 0 (one try). Told of each wait.
   */
  waitMs?: number;
  onWaiting?: StartWait['onWaiting'];
}

function logOption(opts: OpenStoreOptions): { log?: (event: LogEvent) => void } {
  return opts.onQuery ? { log: opts.onQuery } : {};
}

export async function openStore(opts: OpenStoreOptions): Promise<Store> {
  let db: Db;
  let engine: Store['engine'];
  let dedicatedClient: Store['dedicatedClient'];
  let probe: ((leftMs: number) => Promise<void>) | undefined;
  if (opts.databaseUrl) {
    const { default: pg } = await import('pg');
    const connectionString = opts.databaseUrl;
    const pool = new pg.Pool({ connectionString, max: 10 });
    pool.on('error', (err) => opts.onPoolError?.(err));
    // The pool listens for errors only on idle connections: one the server drops while it is
    // checked out (inside a transaction, between its statements) would emit 'error' with no
    // listener and crash the process. Every connection keeps a listener of its own; the query
    // that uses it next fails, and the pool discards it when it comes back.
    pool.on('connect', (client) => {
      let reported = false;
      client.on('error', (err) => {
        // Once per connection (the socket's end follows the server's message); when idle, the
        // pool's own listener is there too and reports it.
        if (reported) return;
        reported = true;
        if (client.listenerCount('error') === 1) opts.onPoolError?.(err);
      });
    });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...logOption(opts) });
    engine = 'postgres';
    dedicatedClient = (applicationName) =>
      new pg.Client({ connectionString, application_name: applicationName, keepAlive: true });
    // One connection within the time left (at least 1 s, at most 10 s), then closed.
    probe = async (leftMs) => {
      const client = new pg.Client({
        connectionString,
        application_name: 'skillflow-start',
        connectionTimeoutMillis: Math.min(Math.max(leftMs, 1_000), 10_000),
      });
      client.on('error', () => undefined);
      try {
        await client.connect();
      } finally {
        await client.end().catch(() => undefined);
      }
    };
  } else {
    const dir = opts.pgliteDir ?? 'memory://';
    if (!dir.startsWith('memory://')) mkdirSync(path.dirname(dir), { recursive: true });
    const { PGlite } = await import('@electric-sql/pglite');
    const pglite = await PGlite.create(dir);
    db = new Kysely<Database>({ dialect: new PGliteDialect(pglite), ...logOption(opts) });
    engine = 'pglite';
  }
  const store: Store = {
    db,
    engine,
    ...(dedicatedClient ? { dedicatedClient } : {}),
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
  if (opts.migrate !== false) {
    // PGlite is in this process: nothing to wait for.
    const waitMs = engine === 'postgres' ? (opts.waitMs ?? 0) : 0;
    try {
      await untilReachable(
        async (leftMs) => {
          // While waiting, a connect bounded by the time left first (the pool's own connect has
          // no bound, so a host that drops packets would hold one try for minutes).
          if (waitMs > 0) await probe?.(leftMs);
          await migrateToLatest(db);
        },
        {
          service: 'the platform store',
          waitMs,
          unreachable: isStoreUnreachable,
          onWaiting: opts.onWaiting,
        },
      );
    } catch (err) {
      await db.destroy();
      throw err;
    }
  }
  return store;
}

/** Applies every pending migration in order; throws on the first failure. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const which = failed ? `store migration ${failed.migrationName}` : 'store migration';
    throw new Error(`${which} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
