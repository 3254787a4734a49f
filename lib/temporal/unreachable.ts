/**
 * Whether an error says the Temporal server could not be reached (refused or dropped
 * connection, a connect deadline, gRPC UNAVAILABLE while it restarts), not that a request was
 * wrong. The worker's native layer reports every failure as a `TransportError`, a missing
 * namespace or a refused permission included, so its message decides, not its name.
 */
const GRPC_UNAVAILABLE = 14;
const GRPC_DEADLINE_EXCEEDED = 4;
const MESSAGES = [
  /Failed to connect before the deadline/i,
  /tcp connect error/i,
  /connection refused/i,
  /connection reset/i,
  /status: Unavailable/i,
  /transport error/i,
];

export function isTemporalUnreachable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (code === GRPC_UNAVAILABLE || code === GRPC_DEADLINE_EXCEEDED) return true;
  return MESSAGES.some((m) => m.test(err.message));
}

/** A short reason for an unreachable server's error, never its message (which names hosts). */
export function temporalUnreachableReason(err: unknown): string {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (code === GRPC_UNAVAILABLE) return 'UNAVAILABLE';
  if (code === GRPC_DEADLINE_EXCEEDED) return 'DEADLINE_EXCEEDED';
  const message = err instanceof Error ? err.message : '';
  if (/deadline/i.test(message)) return 'no connection before the connect deadline';
  if (/refused|tcp connect error/i.test(message)) return 'connection refused';
  return err instanceof Error ? err.name : 'unknown';
}
