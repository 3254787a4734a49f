/**
 * LISTEN on a PostgreSQL channel over a dedicated connection (outside the pool, which would hand
 * the connection to other queries). The listener says when it starts hearing (`onUp`, after the
 * LISTEN succeeded) and when it stops (`onDown`: the connection failed, ended, or missed a
 * heartbeat); it then reconnects with exponential backoff until {@link Listener.close}.
 * Notifications sent while it was down are lost: whoever relies on them must stop trusting what
 * they would have corrected from `onDown` until `onUp`.
 */
import type { Client as PgClient } from 'pg';
import type { Store } from './db.js';

/** What the listener tells its user. */
export interface ListenHandlers {
  onMessage(payload: string): void;
  onUp(): void;
  /** The connection is gone; `code` is the driver's error code when there was one. */
  onDown(code: string | undefined): void;
}

/** The connection's name and its timings. */
export interface ListenOptions {
  /** Shown in pg_stat_activity. */
  applicationName: string;
  /** First reconnect delay, doubled per failed attempt up to `maxBackoffMs`. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** How often the connection is probed; a probe unanswered for as long counts as a drop. */
  heartbeatMs?: number;
}

/** A running listener. */
export interface Listener {
  /** True while LISTEN is in place. */
  readonly up: boolean;
  close(): Promise<void>;
}

/** Channel names are fixed identifiers of this code base, never input. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/** Listens on `channel`; undefined on a store without dedicated connections (PGlite). */
export function listen(
  store: Store,
  channel: string,
  handlers: ListenHandlers,
  opts: ListenOptions,
): Listener | undefined {
  const connect = store.dedicatedClient;
  if (!connect) return undefined;
  if (!CHANNEL.test(channel)) throw new Error('invalid channel name');
  const minBackoff = opts.minBackoffMs ?? 100;
  const maxBackoff = opts.maxBackoffMs ?? 5_000;
  const heartbeatMs = opts.heartbeatMs ?? 2_000;
  let closed = false;
  let up = false;
  let failures = 0;
  let client: PgClient | undefined;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const down = (c: PgClient, code: string | undefined) => {
    if (client !== c) return; // already handled for this connection
    client = undefined;
    clearInterval(heartbeat);
    void c.end().catch(() => undefined);
    const wasUp = up;
    up = false;
    if (wasUp || failures === 0) handlers.onDown(code);
    if (closed) return;
    const delay = Math.min(maxBackoff, minBackoff * 2 ** failures);
    failures++;
    retry = setTimeout(() => void start(), delay);
    retry.unref();
  };

  const probe = (c: PgClient) => {
    const timer = setTimeout(() => down(c, 'HEARTBEAT'), heartbeatMs);
    timer.unref();
    c.query('select 1').then(
      () => clearTimeout(timer),
      (err: { code?: string }) => {
        clearTimeout(timer);
        down(c, err.code);
      },
    );
  };

  const start = async () => {
    if (closed) return;
    const c = connect(opts.applicationName);
    client = c;
    c.on('error', (err: Error & { code?: string }) => down(c, err.code));
    c.on('end', () => down(c, undefined));
    c.on('notification', (msg) => {
      if (msg.channel === channel && msg.payload !== undefined) handlers.onMessage(msg.payload);
    });
    try {
      await c.connect();
      await c.query(`listen ${channel}`);
    } catch (err) {
      down(c, (err as { code?: string }).code);
      return;
    }
    if (client !== c || closed) return;
    up = true;
    failures = 0;
    heartbeat = setInterval(() => probe(c), heartbeatMs);
    heartbeat.unref();
    handlers.onUp();
  };

  void start();
  return {
    get up() {
      return up;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      const c = client;
      client = undefined;
      up = false;
      await c?.end().catch(() => undefined);
    },
  };
}
