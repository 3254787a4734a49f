/** Temporal connections for clients (API, CLI, tests) with the payload codec always attached. */
import { Client, Connection } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { AesGcmPayloadCodec } from '../crypto/codec.js';
import type { Keyring } from '../crypto/keyring.js';

export function dataConverterFor(keyring: Keyring): DataConverter {
  return { payloadCodecs: [new AesGcmPayloadCodec(keyring)] };
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
  const client = new Client({ connection, namespace, dataConverter: dataConverterFor(keyring) });
  return { connection, client, namespace, close: () => connection.close() };
}
