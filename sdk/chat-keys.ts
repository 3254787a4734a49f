/**
 * Chat keys: the keys your devices read chats with. Delivered chat messages are sealed to every
 * chat key you registered (libsodium sealed boxes, X25519), and the API cannot open them: only
 * the private key of a registered key can. Generate a key pair on the device, keep the private
 * key there (never send it), register the public key with `client.chats.registerKey`, and pass
 * the private key to `client.chats.messages(chatId, { privateKey })`.
 */
import sodium from 'libsodium-wrappers';
import type { ChatMessageList } from './generated.js';

/** A chat key pair; both halves standard base64 of 32 bytes. Keep `privateKey` secret. */
export interface ChatKeyPair {
  publicKey: string;
  privateKey: string;
}

type SealedMessage = ChatMessageList['messages'][number];

/** A message as read with a private key: its title and text, when sealed to that key. */
export type ReadChatMessage = Omit<SealedMessage, 'title' | 'message' | 'sealed'> &
  (
    | { readable: true; title: string; message: string }
    /** Sealed only to other keys (another device, or delivered before this key was registered). */
    | { readable: false }
  );

const b64 = (bytes: Uint8Array) => sodium.to_base64(bytes, sodium.base64_variants.ORIGINAL);
const unb64 = (text: string) =>
  sodium.from_base64(
    text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, ''),
    sodium.base64_variants.ORIGINAL_NO_PADDING,
  );

/** A new X25519 key pair (libsodium `crypto_box_keypair`). */
export async function generateChatKeyPair(): Promise<ChatKeyPair> {
  await sodium.ready;
  const kp = sodium.crypto_box_keypair();
  return { publicKey: b64(kp.publicKey), privateKey: b64(kp.privateKey) };
}

/** The public key of a private key. */
export async function chatPublicKeyOf(privateKey: string): Promise<string> {
  await sodium.ready;
  return b64(sodium.crypto_scalarmult_base(unb64(privateKey)));
}

function tryOpen(ciphertext: string, publicKey: Uint8Array, privateKey: Uint8Array): unknown {
  try {
    return JSON.parse(
      sodium.to_string(sodium.crypto_box_seal_open(unb64(ciphertext), publicKey, privateKey)),
    );
  } catch {
    return undefined;
  }
}

/**
 * Opens each message's copy sealed to `privateKey`. A copy that does not name the message it is
 * listed under is not accepted (`readable: false`). Messages the server sealed itself (the
 * development mode CHAT_SERVER_SEALED) come as they are.
 */
export async function openChatMessages(
  messages: readonly SealedMessage[],
  privateKey: string,
): Promise<ReadChatMessage[]> {
  await sodium.ready;
  const secret = unb64(privateKey);
  const pub = sodium.crypto_scalarmult_base(secret);
  return messages.map(({ title, message, sealed, ...rest }) => {
    if (title !== undefined && message !== undefined) return { ...rest, readable: true, title, message };
    for (const copy of sealed) {
      const opened = tryOpen(copy.ciphertext, pub, secret) as
        { message_id?: unknown; title?: unknown; message?: unknown } | undefined;
      if (
        opened?.message_id === rest.message_id &&
        typeof opened.title === 'string' &&
        typeof opened.message === 'string'
      )
        return { ...rest, readable: true, title: opened.title, message: opened.message };
    }
    return { ...rest, readable: false };
  });
}
