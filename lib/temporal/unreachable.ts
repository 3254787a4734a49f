/**
 * Whether an error says the Temporal server could not be reached (refused or dropped
 * connection, a connect deadline, gRPC UNAVAILABLE while it restarts), not that a request was
 * wrong. Such an error is worth another try once the server is back.
 */
const GRPC_UNAVAILABLE = 14;
const GRPC_DEADLINE_EXCEEDED = 4;
const MESSAGES = [/Failed to connect before the deadline/i, /tcp connect error/i, /connection refused/i];

export function isTemporalUnreachable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'TransportError') return true;
  const code = (err as { code?: unknown }).code;
  if (code === GRPC_UNAVAILABLE || code === GRPC_DEADLINE_EXCEEDED) return true;
  return MESSAGES.some((m) => m.test(err.message));
}
