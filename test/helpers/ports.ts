/**
 * Free loopback ports for servers a test starts itself, picked at random below Linux's
 * ephemeral range (32768-60999) and below the local cluster's range (20000-32000): a port from
 * `listen(0)` lies in the ephemeral range, where, under a parallel test run's many outgoing
 * connections, one of them may take it before the server binds it (`address already in use`).
 */
import { freePortBase } from '../../scripts/cluster/ports.js';

const RANGE = { min: 10_000, max: 20_000 };

/** A currently free loopback TCP port. */
export function freePort(): Promise<number> {
  return freePortBase([0], RANGE);
}
