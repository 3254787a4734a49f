/**
 * AES-256-GCM sealing shared by the Temporal payload codec and the platform store's encrypted
 * columns. Layout: 12-byte IV | ciphertext | 16-byte tag. Each purpose encrypts under its own
 * subkey (keyring.ts, HKDF), and the key id plus the caller's context are bound as additional
 * authenticated data: a blob cannot be re-labelled to another key, and a sealed store value
 * opens only in the table, column, row and owner it was sealed for.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { subkey, type KeyPurpose, type Keyring } from './keyring.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;

export class DecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecryptionError';
  }
}

/** `legacy` is the raw key with the key id alone as AAD: how values were sealed before subkeys. */
export type SealPurpose = KeyPurpose | 'legacy';

function keyFor(keyring: Keyring, keyId: string, purpose: SealPurpose): Buffer | undefined {
  const raw = keyring.keys.get(keyId);
  if (!raw) return undefined;
  return purpose === 'legacy' ? raw : subkey(keyring, keyId, purpose);
}

function aadOf(keyId: string, context: string): Buffer {
  return Buffer.from(context === '' ? keyId : `${keyId}\0${context}`, 'utf8');
}

/** Seals `plaintext` under the active key's subkey for `purpose`, binding `context`. */
export function seal(
  keyring: Keyring,
  purpose: KeyPurpose,
  plaintext: Uint8Array,
  context = '',
): { keyId: string; data: Buffer } {
  const keyId = keyring.activeKeyId;
  const key = keyFor(keyring, keyId, purpose);
  if (!key) throw new Error('active key missing from keyring');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aadOf(keyId, context));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { keyId, data: Buffer.concat([iv, body, cipher.getAuthTag()]) };
}

/** Opens what {@link seal} produced; the purpose and context must match. */
export function open(
  keyring: Keyring,
  purpose: SealPurpose,
  keyId: string,
  data: Uint8Array,
  context = '',
): Buffer {
  const key = keyFor(keyring, keyId, purpose);
  if (!key) throw new DecryptionError('the key that sealed this value is not in the keyring');
  if (data.length < IV_BYTES + TAG_BYTES) throw new DecryptionError('ciphertext too short');
  const buf = Buffer.from(data);
  const decipher = createDecipheriv('aes-256-gcm', key, buf.subarray(0, IV_BYTES));
  decipher.setAAD(aadOf(keyId, context));
  decipher.setAuthTag(buf.subarray(buf.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(buf.subarray(IV_BYTES, buf.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new DecryptionError('ciphertext failed authentication');
  }
}
