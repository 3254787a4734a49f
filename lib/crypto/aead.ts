/**
 * AES-256-GCM sealing shared by the Temporal payload codec and the platform store's encrypted
 * columns. Layout: 12-byte IV | ciphertext | 16-byte tag. The key id is bound as additional
 * authenticated data, so a blob cannot be re-labelled to another key.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Keyring } from './keyring.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;

export class DecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecryptionError';
  }
}

export function seal(keyring: Keyring, plaintext: Uint8Array): { keyId: string; data: Buffer } {
  const keyId = keyring.activeKeyId;
  const key = keyring.keys.get(keyId);
  if (!key) throw new Error('active key missing from keyring');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(keyId, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { keyId, data: Buffer.concat([iv, body, cipher.getAuthTag()]) };
}

export function open(keyring: Keyring, keyId: string, data: Uint8Array): Buffer {
  const key = keyring.keys.get(keyId);
  if (!key) throw new DecryptionError(`no key with id ${keyId} in the keyring`);
  if (data.length < IV_BYTES + TAG_BYTES) throw new DecryptionError('ciphertext too short');
  const buf = Buffer.from(data);
  const decipher = createDecipheriv('aes-256-gcm', key, buf.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(keyId, 'utf8'));
  decipher.setAuthTag(buf.subarray(buf.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(buf.subarray(IV_BYTES, buf.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new DecryptionError('ciphertext failed authentication');
  }
}

/** Seals a JSON value into one self-describing string `<keyId>.<base64>` for a text column. */
export function sealJson(keyring: Keyring, value: unknown): string {
  const { keyId, data } = seal(keyring, Buffer.from(JSON.stringify(value), 'utf8'));
  return `${keyId}.${data.toString('base64')}`;
}

export function openJson<T = unknown>(keyring: Keyring, sealed: string): T {
  const dot = sealed.indexOf('.');
  if (dot <= 0) throw new DecryptionError('not a sealed value');
  const plain = open(keyring, sealed.slice(0, dot), Buffer.from(sealed.slice(dot + 1), 'base64'));
  return JSON.parse(plain.toString('utf8')) as T;
}
