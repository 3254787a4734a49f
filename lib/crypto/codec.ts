/**
 * The Temporal PayloadCodec: every payload (workflow and activity inputs, results, failures'
 * details, memos) is AES-256-GCM encrypted before it leaves the process, so queries and results
 * never reach Temporal's store in plaintext. Metadata carries the key id.
 */
import type { Payload, PayloadCodec } from '@temporalio/common';
import proto from '@temporalio/proto';

const { temporal } = proto;
import { open, seal } from './aead.js';
import type { Keyring } from './keyring.js';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const KEY_ID_METADATA = 'encryption-key-id';
/** Marks payloads sealed under the payload subkey; payloads without it used the raw key. */
export const SCHEME_METADATA = 'encryption-scheme';
const SCHEME = 'hkdf-payload-v1';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class AesGcmPayloadCodec implements PayloadCodec {
  constructor(private readonly keyring: Keyring) {}

  encode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.resolve(
      payloads.map((payload) => {
        const plain = temporal.api.common.v1.Payload.encode(payload).finish();
        const { keyId, data } = seal(this.keyring, 'payload', plain);
        return {
          metadata: {
            encoding: encoder.encode(ENCRYPTED_ENCODING),
            [KEY_ID_METADATA]: encoder.encode(keyId),
            [SCHEME_METADATA]: encoder.encode(SCHEME),
          },
          data,
        };
      }),
    );
  }

  decode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.resolve(
      payloads.map((payload) => {
        const encoding = payload.metadata?.encoding;
        if (!encoding || decoder.decode(encoding) !== ENCRYPTED_ENCODING) return payload;
        const keyIdBytes = payload.metadata?.[KEY_ID_METADATA];
        if (!keyIdBytes || !payload.data) throw new Error('encrypted payload without key id or data');
        // Histories written before subkeys (no scheme) still decode, with the raw key.
        const scheme = payload.metadata?.[SCHEME_METADATA];
        const purpose = scheme && decoder.decode(scheme) === SCHEME ? 'payload' : 'legacy';
        const plain = open(this.keyring, purpose, decoder.decode(keyIdBytes), payload.data);
        return temporal.api.common.v1.Payload.decode(plain);
      }),
    );
  }
}
