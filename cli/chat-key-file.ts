/**
 * The CLI's chat key file: this device's X25519 key pair for reading chats, written by
 * `skillflow chats init` (mode 0600) and read by `skillflow chats read`. Path:
 * `SKILLFLOW_CHAT_KEY_FILE`, else `$XDG_CONFIG_HOME/skillflow/chat-key.json`, else
 * `~/.config/skillflow/chat-key.json`. Only its public key is ever sent (registered with the
 * API); a lost file cannot be recovered, and messages sealed to it alone stay unreadable.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { ChatKeyPair } from '../sdk/index.js';

const KeyFileSchema = z.object({
  public_key: z.string().regex(/^[A-Za-z0-9+/]{43}=$/),
  private_key: z.string().regex(/^[A-Za-z0-9+/]{43}=$/),
});

/** Where the chat key file lives. */
export function chatKeyPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SKILLFLOW_CHAT_KEY_FILE?.trim()) return path.resolve(env.SKILLFLOW_CHAT_KEY_FILE.trim());
  const base = env.XDG_CONFIG_HOME?.trim() || path.join(os.homedir(), '.config');
  return path.join(base, 'skillflow', 'chat-key.json');
}

/** The key pair in the file; undefined when there is no file, an error when it is not one. */
export function readChatKeyFile(file: string): ChatKeyPair | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const parsed = KeyFileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${file} is not a skillflow chat key file`);
  return { publicKey: parsed.data.public_key, privateKey: parsed.data.private_key };
}

/** Writes a new key file (mode 0600, its folder 0700); never overwrites one. */
export function writeChatKeyFile(file: string, pair: ChatKeyPair): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const body = JSON.stringify({ public_key: pair.publicKey, private_key: pair.privateKey }, null, 2);
  writeFileSync(file, body + '\n', { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
}
