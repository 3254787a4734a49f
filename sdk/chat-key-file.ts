/**
 * A device's chat key file, as `skillflow chats init` writes it: JSON
 * `{ "public_key": "<base64>", "private_key": "<base64>" }` (X25519, 32 bytes each), mode 0600 in a
 * folder of mode 0700. The CLI and both SDKs read the same file, so one device key serves them
 * all. Path: `SKILLFLOW_CHAT_KEY_FILE`, else `$XDG_CONFIG_HOME/skillflow/chat-key.json`, else
 * `~/.config/skillflow/chat-key.json`. A file that is not a key file is refused with
 * `CHAT_KEY_FILE_INVALID`, naming the path and never its content.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChatKeyPair } from './chat-keys.js';
import { SkillflowClientError } from './errors.js';

const KEY = /^[A-Za-z0-9+/]{43}=$/;

/** Where this device's chat key file lives. */
export function chatKeyFilePath(env: Record<string, string | undefined> = process.env): string {
  if (env.SKILLFLOW_CHAT_KEY_FILE?.trim()) return path.resolve(env.SKILLFLOW_CHAT_KEY_FILE.trim());
  const base = env.XDG_CONFIG_HOME?.trim() || path.join(os.homedir(), '.config');
  return path.join(base, 'skillflow', 'chat-key.json');
}

function invalid(file: string): SkillflowClientError {
  return new SkillflowClientError(
    'CHAT_KEY_FILE_INVALID',
    `${file} is not a skillflow chat key file (JSON with public_key and private_key); move it away and run \`skillflow chats init\` to make a new key`,
  );
}

/** The key pair in the file; undefined when there is no file. */
export async function readChatKeyFile(file: string = chatKeyFilePath()): Promise<ChatKeyPair | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The parser's message quotes the file: never repeated.
    throw invalid(file);
  }
  const { public_key: publicKey, private_key: privateKey } = (parsed ?? {}) as Record<string, unknown>;
  if (
    typeof publicKey !== 'string' ||
    typeof privateKey !== 'string' ||
    !KEY.test(publicKey) ||
    !KEY.test(privateKey)
  )
    throw invalid(file);
  return { publicKey, privateKey };
}

/** Writes a new key file (mode 0600, its folder 0700); never overwrites one. */
export async function writeChatKeyFile(file: string, pair: ChatKeyPair): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const body = JSON.stringify({ public_key: pair.publicKey, private_key: pair.privateKey }, null, 2);
  await writeFile(file, body + '\n', { mode: 0o600, flag: 'wx' });
  await chmod(file, 0o600);
}
