/**
 * `skillflow chats init`, `chats list` and `chats read <chat_id>`: the chats `send_chat_message`
 * steps deliver to. Messages are sealed to the owner's chat keys and the API cannot read them:
 * `init` makes this device's key file (sdk/chat-key-file.ts, shared with the SDKs) and registers
 * its public key,
 * `read` opens the messages with it.
 */
import type { Command } from 'commander';
import { hostname } from 'node:os';
import { chatKeyFilePath, generateChatKeyPair, readChatKeyFile, writeChatKeyFile } from '../../sdk/index.js';
import type { CliContext } from '../context.js';
import { CliError, EXIT, out, printable, printJson } from '../output.js';

/** `2026-11-27T07:01:02.000Z` → `2026-11-27 07:01 UTC`. */
const minute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

function pageLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100)
    throw new CliError('--limit takes a whole number from 1 to 100.', EXIT.USAGE, 'USAGE');
  return n;
}

/** Registers `chats`. */
export function registerChats(
  program: Command,
  context: () => CliContext,
  run: (fn: () => Promise<number>) => Promise<void>,
): void {
  const chats = program
    .command('chats')
    .description('Read the chats your runs deliver messages to (needs the "workflows" scope)');

  chats
    .command('init')
    .description(
      "Make this device's chat key (if there is none) and register its public key, so delivered messages can be read here",
    )
    .option('--label <name>', 'a name for this device in the key list (default: "CLI on <host name>")')
    .action((flags: { label?: string }) =>
      run(async () => {
        const file = chatKeyFilePath();
        let pair = await readChatKeyFile(file);
        const made = pair === undefined;
        if (!pair) {
          pair = await generateChatKeyPair();
          await writeChatKeyFile(file, pair);
        }
        const label = flags.label ?? `CLI on ${hostname()}`.slice(0, 64);
        const key = await context().client.chats.registerKey(pair.publicKey, label);
        out(`${made ? 'created' : 'using'} chat key file ${file} (keep it private; it cannot be recovered)`);
        out(`registered chat key ${key.key_id}: messages delivered from now on can be read here`);
        return EXIT.OK;
      }),
    );

  chats
    .command('list')
    .description('Your chats, most recently active first')
    .option('--limit <n>', 'at most this many (1-100)', '50')
    .option('--before <time>', 'only chats last active before this ISO time (the next page)')
    .option('--json', 'print the REST body { chats: [...] }')
    .action((flags: { limit?: string; before?: string; json?: boolean }) =>
      run(async () => {
        const limit = pageLimit(flags.limit);
        const list = await context().client.chats.list({
          ...(limit !== undefined && { limit }),
          ...(flags.before !== undefined && { before: flags.before }),
        });
        if (flags.json) printJson({ chats: list });
        else if (list.length === 0) out('no chats yet: a run delivers to one with a send_chat_message step');
        else {
          const width = Math.max(...list.map((c) => c.chat_id.length));
          for (const c of list) {
            const count = `${c.messages} message${c.messages === 1 ? '' : 's'}`;
            const last = c.last_message_at ? `last ${minute(c.last_message_at)}` : 'no messages';
            const extras = [c.focus_mode && `focus ${c.focus_mode}`, c.webhook_configured && 'webhook']
              .filter(Boolean)
              .join(', ');
            out(`${c.chat_id.padEnd(width)}  ${count.padStart(12)}  ${last}${extras ? `  (${extras})` : ''}`);
          }
        }
        return EXIT.OK;
      }),
    );

  chats
    .command('read <chat_id>')
    .description("A chat's latest messages, oldest of them first")
    .option('--limit <n>', 'at most this many (1-100)', '20')
    .option('--before <time>', 'only messages created before this ISO time (earlier messages)')
    .option('--json', 'print { chat_id, messages: [...] } (newest first), the messages opened')
    .action((chatId: string, flags: { limit?: string; before?: string; json?: boolean }) =>
      run(async () => {
        const limit = pageLimit(flags.limit);
        const file = chatKeyFilePath();
        const pair = await readChatKeyFile(file);
        if (!pair)
          throw new CliError(
            `no chat key file at ${file}: run \`skillflow chats init\` first (messages are sealed to your chat keys)`,
            EXIT.FAILURE,
            'CHAT_KEY_MISSING',
          );
        const messages = await context().client.chats.messages(chatId, {
          ...(limit !== undefined && { limit }),
          ...(flags.before !== undefined && { before: flags.before }),
          privateKey: pair.privateKey,
        });
        if (flags.json) {
          printJson({ chat_id: chatId, messages });
          return EXIT.OK;
        }
        if (messages.length === 0) out('no messages');
        for (const m of [...messages].reverse()) {
          const from = m.task_id ? `  (${m.task_id}${m.step_id ? ` › ${m.step_id}` : ''})` : '';
          if (!m.readable) {
            out(`${minute(m.created_at)}  (sealed to other chat keys: not readable with ${file})${from}`);
            continue;
          }
          out(`${minute(m.created_at)}  ${printable(m.title)}${from}`);
          for (const line of printable(m.message).split('\n')) out(`  ${line}`);
        }
        return EXIT.OK;
      }),
    );
}
