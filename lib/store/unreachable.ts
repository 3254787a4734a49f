/**
 * Whether an error says the platform store could not be reached (not that a statement was
 * wrong): PostgreSQL shutting down or restarting, a dropped or refused connection, a pool that
 * could not connect in time. Such an error is worth a retry once the store is back; any other
 * store error is a defect and is not.
 */
const PG_UNREACHABLE = new Set(['57P01', '57P02', '57P03', '53300']);
const NET_UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);
const MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
];

export function isStoreUnreachable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    // Class 08: connection exceptions.
    if (code.startsWith('08') || PG_UNREACHABLE.has(code) || NET_UNREACHABLE.has(code)) return true;
  }
  return MESSAGES.some((m) => m.test(err.message));
}
