/**
 * Temporal connections for clients (API, CLI, tests) with the payload codec and the encoding
 * failure converter always attached.
 */
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { AesGcmPayloadCodec } from '../crypto/codec.js';
import type { Keyring } from '../crypto/keyring.js';
import { untilReachable, type StartWait } from '../start-wait.js';
import { tracingClientInterceptors } from '../tracing/temporal.js';
import { isTemporalUnreachable, temporalUnreachableReason } from './unreachable.js';

/** Module of the failure converter (encoded messages and stack traces); see its header. */
export const FAILURE_CONVERTER_PATH = path.resolve(import.meta.dirname, 'failure-converter.cjs');

/** The data converter of every client and worker: payloads and failure texts encrypted. */
export function dataConverterFor(keyring: Keyring): DataConverter {
  return { payloadCodecs: [new AesGcmPayloadCodec(keyring)], failureConverterPath: FAILURE_CONVERTER_PATH };
}

export interface TemporalClient {
  connection: Connection;
  client: Client;
  namespace: string;
  close(): Promise<void>;
}

/** How long a start waits for an unreachable server (default: it tries once), told of each wait. */
export type TemporalWait = Pick<StartWait, 'waitMs' | 'onWaiting'>;

export async function connectTemporal(
  address: string,
  namespace: string,
  keyring: Keyring,
  wait: TemporalWait = { waitMs: 0 },
): Promise<TemporalClient> {
  // Each try ends within the time left (at least 1 s, at most the SDK's 10 s), and a try that
  // fails closes its channel.
  const connection = await untilTemporalReachable(async (leftMs) => {
    const conn = Connection.lazy({
      address,
      ...(wait.waitMs > 0 ? { connectTimeout: Math.min(Math.max(leftMs, 1_000), 10_000) } : {}),
    });
    try {
      await conn.ensureConnected();
      return conn;
    } catch (err) {
      await conn.close().catch(() => undefined);
      throw err;
    }
  }, wait);
  return {
    connection,
    client: clientOn(connection, namespace, keyring),
    namespace,
    close: () => connection.close(),
  };
}

/**
 * A client on an open connection, with the payload codec and, while tracing is on, the
 * interceptor that carries the caller's trace into the workflows it starts.
 */
export function clientOn(connection: Connection, namespace: string, keyring: Keyring): Client {
  const interceptors = tracingClientInterceptors();
  return new Client({
    connection,
    namespace,
    dataConverter: dataConverterFor(keyring),
    ...(interceptors ? { interceptors } : {}),
  });
}

/** Runs a start step against the Temporal server, waiting for it as `wait` says. */
export function untilTemporalReachable<T>(
  op: (leftMs: number) => Promise<T>,
  wait: TemporalWait,
): Promise<T> {
  return untilReachable(op, {
    service: 'the Temporal server',
    unreachable: isTemporalUnreachable,
    reason: temporalUnreachableReason,
    ...wait,
  });
}
