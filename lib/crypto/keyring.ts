/**
 * The encryption keyring: AES-256 keys with short ids. The first key encrypts; every key
 * decrypts, so keys can be rotated by prepending a new one to SKILLFLOW_ENCRYPTION_KEY
 * (comma-separated `[<id>:]<base64 32 bytes>` entries). In development, when the variable is
 * unset, a key is generated once under the data directory (mode 0600) and reused.
 *
 * No key is used directly: each purpose gets its own subkey, HKDF-SHA256 of the key with the
 * purpose as info. The payload codec and the store encrypt with the first (active) key's subkey;
 * guest-id, Idempotency-Key and event-index hashing use the last (oldest) key's, so prepending
 * a key for rotation leaves guest counters, claimed keys and recorded event waits untouched
 * (README "Security"). Approval and download links are signed under the active key's subkey and
 * verified under the key their token names (lib/crypto/signed-token.ts).
 */
import { createHash, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface Keyring {
  /** The first entry: encrypts payloads and store values. */
  activeKeyId: string;
  /** The last entry: keys the hashes that must outlive rotations of the active key. */
  hashKeyId: string;
  keys: ReadonlyMap<string, Buffer>;
  /** Where the keys came from, for the startup log (never the key material). */
  origin: 'env' | 'dev-file';
}

const ENTRY = /^(?:([A-Za-z0-9_-]{1,32}):)?([A-Za-z0-9+/]{43}=)$/;

/** Derives a stable, non-secret id from key material. */
export function keyIdOf(key: Buffer): string {
  return 'k' + createHash('sha256').update(key).digest('hex').slice(0, 10);
}

/** Parses `[id:]base64,[id:]base64,...`. Throws without echoing any key material. */
export function parseKeyring(value: string, origin: Keyring['origin']): Keyring {
  const keys = new Map<string, Buffer>();
  let active: string | undefined;
  let last: string | undefined;
  for (const [i, raw] of value.split(',').entries()) {
    const m = ENTRY.exec(raw.trim());
    const b64 = m?.[2];
    if (!m || !b64)
      throw new Error(`SKILLFLOW_ENCRYPTION_KEY: entry ${i + 1} is not [<id>:]<base64 of 32 bytes>`);
    const key = Buffer.from(b64, 'base64');
    if (key.length !== 32) throw new Error(`SKILLFLOW_ENCRYPTION_KEY: entry ${i + 1} is not 32 bytes`);
    const id = m[1] ?? keyIdOf(key);
    if (keys.has(id)) throw new Error(`SKILLFLOW_ENCRYPTION_KEY: key id ${id} appears twice`);
    keys.set(id, key);
    active ??= id;
    last = id;
  }
  if (!active || !last) throw new Error('SKILLFLOW_ENCRYPTION_KEY: no key given');
  return { activeKeyId: active, hashKeyId: last, keys, origin };
}

/** What a subkey is for; each purpose's subkeys are independent of the others'. */
export type KeyPurpose =
  | 'payload'
  | 'store'
  | 'guest-hash'
  | 'approval-link'
  | 'download-link'
  | 'event-index'
  | 'idempotency-key'
  | 'session-csrf';

/** HKDF info per purpose. Guest hashing keeps the info it had before subkeys, so counters survive. */
const INFO: Record<KeyPurpose, string> = {
  payload: 'skillflow/payload/v1',
  store: 'skillflow/store/v1',
  'guest-hash': 'skillflow anonymous counters',
  'approval-link': 'skillflow/approval-link/v1',
  'download-link': 'skillflow/download-link/v1',
  'event-index': 'skillflow/event-index/v1',
  'idempotency-key': 'skillflow/idempotency-key/v1',
  'session-csrf': 'skillflow/session-csrf/v1',
};

const subkeys = new WeakMap<Buffer, Map<KeyPurpose, Buffer>>();

/** The HKDF-SHA256 subkey of key `keyId` for `purpose` (cached per key). */
export function subkey(keyring: Keyring, keyId: string, purpose: KeyPurpose): Buffer {
  const key = keyring.keys.get(keyId);
  if (!key) throw new Error('key missing from keyring');
  let perKey = subkeys.get(key);
  if (!perKey) subkeys.set(key, (perKey = new Map<KeyPurpose, Buffer>()));
  let derived = perKey.get(purpose);
  if (!derived) {
    derived = Buffer.from(hkdfSync('sha256', key, '', INFO[purpose], 32));
    perKey.set(purpose, derived);
  }
  return derived;
}

/** The keyring from config, or the dev key file under dataDir (created on first use). */
export function loadKeyring(envValue: string | undefined, dataDir: string): Keyring {
  if (envValue) return parseKeyring(envValue, 'env');
  const file = path.join(dataDir, 'encryption.key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  }
  chmodSync(file, 0o600);
  return parseKeyring(readFileSync(file, 'utf8').trim(), 'dev-file');
}
