/**
 * Free loopback ports for servers a test starts itself. A port is picked at random below Linux's
 * ephemeral range (32768-60999) and below the local cluster's range (20000-32000): a port from
 * `listen(0)` lies in the ephemeral range, where, under a parallel test run's many outgoing
 * connections, one of them may take it before the server binds it (`address already in use`).
 */
import { createServer } from 'node:net';

const RANGE = { min: 10_000, max: 20_000 };

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** A currently free loopback TCP port. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = RANGE.min + Math.floor(Math.random() * (RANGE.max - RANGE.min));
    if (await bindable(port)) return port;
  }
}
