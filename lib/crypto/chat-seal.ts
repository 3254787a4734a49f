/**
 * Chat content sealed to its owner: libsodium sealed boxes (`crypto_box_seal`: an ephemeral
 * X25519 key, XSalsa20-Poly1305) to each registered public key. Only the holder of the matching
 * private key can open a copy; the server that seals cannot. The sealed plaintext is the JSON
 * `{ message_id, title, message }`, so a client can check that a copy belongs to the message it
 * is listed under. Keys and ciphertexts travel as standard base64.
 */
import sodium from 'libsodium-wrappers';
import { z } from 'zod';

/** An X25519 public key: base64 (standard or URL-safe, padding optional) of exactly 32 bytes. */
export const ChatPublicKeySchema = z
  .string()
  .max(64, { message: 'must be base64 or base64url of 32 bytes', abort: true })
  .regex(/^[A-Za-z0-9+/_-]+={0,2}$/, { message: 'must be base64 or base64url', abort: true })
  // 43 characters carry 256 bits when the last one ends in two zero bits; then `=` or nothing.
  .regex(/^[A-Za-z0-9+/_-]{42}[AEIMQUYcgkosw048]=?$/, 'must encode exactly 32 bytes (an X25519 public key)')
  .transform((v) => Buffer.from(v.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('base64'));

/** One sealed copy of a message's content. */
export interface SealedCopy {
  keyId: string;
  /** Standard base64 of the sealed box. */
  ciphertext: string;
}

export interface SealedContent {
  message_id: string;
  title: string;
  message: string;
}

/**
 * Whether content can be sealed to the key: X25519 refuses the few low-order points (all zeros,
 * for one), so such a key is refused at registration rather than failing every delivery.
 */
export async function canSealTo(publicKey: string): Promise<boolean> {
  await sodium.ready;
  try {
    sodium.crypto_box_seal(new Uint8Array(0), Buffer.from(publicKey, 'base64'));
    return true;
  } catch {
    return false;
  }
}

/** Seals the content to each key (`publicKey` in standard base64). */
export async function sealToKeys(
  content: SealedContent,
  keys: readonly { id: string; publicKey: string }[],
): Promise<SealedCopy[]> {
  await sodium.ready;
  const plain = new TextEncoder().encode(JSON.stringify(content));
  return keys.map((k) => ({
    keyId: k.id,
    ciphertext: Buffer.from(sodium.crypto_box_seal(plain, Buffer.from(k.publicKey, 'base64'))).toString(
      'base64',
    ),
  }));
}
