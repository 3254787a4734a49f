/**
 * Temporal connections for clients (API, CLI, tests) with the payload codec and the encoding
 * failure converter always attached.
 */
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { AesGcmPayloadCodec } from '../crypto/codec.js';
import type { Keyring } from '../crypto/keyring.js';
import { tracingClientInterceptors } from '../tracing/temporal.js';

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

export async function connectTemporal(
  address: string,
  namespace: string,
  keyring: Keyring,
): Promise<TemporalClient> {
  const connection = await Connection.connect({ address });
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
