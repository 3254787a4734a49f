import { describe, expect, it } from 'vitest';
import { isTemporalUnreachable, temporalUnreachableReason } from './unreachable.js';

const transport = (message: string): Error => Object.assign(new Error(message), { name: 'TransportError' });
const grpc = (code: number, message: string): Error => Object.assign(new Error(message), { code });

describe('isTemporalUnreachable', () => {
  it('counts a refused or dropped connection, a connect deadline and UNAVAILABLE', () => {
    expect(
      [
        transport(
          'tonic::transport::Error(Transport, ConnectError(ConnectError("tcp connect error", 127.0.0.1:1, Os { code: 111, kind: ConnectionRefused, message: "Connection refused" })))',
        ),
        new Error('Failed to connect before the deadline'),
        grpc(14, '14 UNAVAILABLE: Connection dropped'),
        grpc(4, '4 DEADLINE_EXCEEDED: Deadline exceeded'),
        transport('status: Unavailable, message: "error trying to connect"'),
      ].map(isTemporalUnreachable),
    ).toEqual([true, true, true, true, true]);
  });

  it('does not count a missing namespace, a refused permission or any other error', () => {
    expect(
      [
        transport('status: NotFound, message: "Namespace nope is not found."'),
        transport('status: PermissionDenied, message: "Request unauthorized."'),
        grpc(5, '5 NOT_FOUND: Namespace nope is not found.'),
        new Error('something else'),
        'not an error',
      ].map(isTemporalUnreachable),
    ).toEqual([false, false, false, false, false]);
  });

  it('names the reason without the message (which names the host)', () => {
    expect(
      [
        transport('tcp connect error, 10.0.0.5:7233, Connection refused'),
        new Error('Failed to connect before the deadline'),
        grpc(14, '14 UNAVAILABLE: No connection established'),
      ].map(temporalUnreachableReason),
    ).toEqual(['connection refused', 'no connection before the connect deadline', 'UNAVAILABLE']);
  });
});
