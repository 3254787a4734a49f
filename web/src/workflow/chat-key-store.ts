/**
 * This browser's chat key: an X25519 key pair made here (libsodium, sdk/chat-keys.ts) and kept in
 * IndexedDB, never sent anywhere. Its public key is registered with the API (POST /v1/chats/keys)
 * once per signed-in key and page, so messages delivered from then on are sealed to it too; the
 * messages view opens them here. Clearing the site's data loses the key: messages sealed to it
 * alone can no longer be read in this browser.
 */
import type { ChatKeyPair } from '../../../sdk/chat-keys.js';
import type { ChatKey } from '../../../sdk/generated.js';
import { request } from '../api.js';

const DB = 'skillflow';
const STORE = 'chat-keys';
const ID = 'device';

function database(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(DB, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(STORE);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error ?? new Error('IndexedDB is not available'));
  });
}

function inStore<T>(mode: IDBTransactionMode, act: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return database().then(
    (db) =>
      new Promise<T>((resolve, reject) => {
        const req = act(db.transaction(STORE, mode).objectStore(STORE));
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
      }),
  );
}

let pair: Promise<ChatKeyPair> | undefined;
/** This browser's key pair, made and stored on first use. */
export function deviceChatKey(): Promise<ChatKeyPair> {
  pair ??= (async () => {
    const stored = await inStore('readonly', (s) => s.get(ID) as IDBRequest<ChatKeyPair | undefined>);
    if (stored) return stored;
    // libsodium is loaded only when a chat is read: its own chunk, not the main bundle.
    const { generateChatKeyPair } = await import('../../../sdk/chat-keys.js');
    const made = await generateChatKeyPair();
    await inStore('readwrite', (s) => s.add(made, ID));
    return made;
  })();
  return pair;
}

const registered = new Map<string, Promise<ChatKey>>();
/** Registers this browser's public key for the signed-in owner (once per session and page). */
export function registerDeviceChatKey(auth: string): Promise<ChatKey> {
  let done = registered.get(auth);
  if (!done) {
    done = deviceChatKey().then(({ publicKey }) =>
      request<ChatKey>('POST', '/v1/chats/keys', {
        auth,
        body: { public_key: publicKey, label: 'workspace (browser)' },
      }),
    );
    done.catch(() => registered.delete(auth));
    registered.set(auth, done);
  }
  return done;
}
