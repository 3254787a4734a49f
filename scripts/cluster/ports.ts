/**
 * Free loopback ports for a cluster of tests or benchmarks: a random base whose neighbours at
 * the given offsets are all free (the Temporal server's services use ports around its frontend).
 */
import { createServer } from 'node:net';

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * Below Linux's default ephemeral range (32768-60999): a port there may be taken by an outgoing
 * connection while its server is down, and a restarted server could not bind it again.
 */
const BELOW_EPHEMERAL = { min: 20_000, max: 32_000 };

export async function freePortBase(offsets: number[], range = BELOW_EPHEMERAL): Promise<number> {
  for (;;) {
    const base = range.min + Math.floor(Math.random() * (range.max - range.min));
    const free = await Promise.all(offsets.map((o) => portFree(base + o)));
    if (free.every(Boolean)) return base;
  }
}

/** The offsets from the frontend port that the Temporal server listens on (temporal-server.ts). */
export const TEMPORAL_PORT_OFFSETS = [0, 1, 2, 6, 10, -300, -299, -298, -294];
/**
 * Frontend ports whose membership ports fit Temporal's membership table (a smallint column:
 * at most 32767).
 */
export const TEMPORAL_PORT_RANGE = { min: 20_000, max: 32_000 };
