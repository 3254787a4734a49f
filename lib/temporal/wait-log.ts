/** The log line of each wait for a Temporal server that cannot be reached yet at start. */
import type { Logger } from '../logger.js';
import { temporalUnreachableReason } from './unreachable.js';

export function temporalWaitLogger(logger: Logger, address: string): (err: Error, retryInMs: number) => void {
  return (err, retryInMs) =>
    logger.warn(
      { address, reason: temporalUnreachableReason(err), retryInMs },
      'Temporal server not reachable yet; trying again',
    );
}
