/**
 * Chat delivery sealed to the owner's chat keys (the default): only sealed copies are stored
 * and posted to the webhook, each opens with its device's private key, a retry keeps the first
 * copies, and an owner without a key gets CHAT_KEY_MISSING with nothing stored.
 */
import { createServer, type Server } from 'node:http';
import sodium from 'libsodium-wrappers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealJson } from '../../lib/crypto/sealed-value.js';
import type { WebhookPolicy } from '../../lib/net/webhook.js';
import { addChatKey } from '../../lib/store/owners/chat-keys.js';
import { openStore, type Store } from '../../lib/store/db.js';
import { sealedCell } from '../../lib/store/sealed-columns.js';
import { TEST_KEYRING, TEST_RESOLVE } from '../../test/helpers/fixtures.js';
import { ChatKeyMissingError, deliver, messageIdFor } from './chat-delivery.js';

const LOOPBACK_OK: WebhookPolicy = { allowLoopback: true, resolve: TEST_RESOLVE };

describe('chat delivery sealed to chat keys', () => {
  let store: Store;
  let server: Server;
  let url: string;
  const received: unknown[] = [];
  let devices: { publicKey: Uint8Array; privateKey: Uint8Array }[];

  beforeAll(async () => {
    await sodium.ready;
    store = await openStore({ pgliteDir: 'memory://' });
    devices = [sodium.crypto_box_keypair(), sodium.crypto_box_keypair()];
    for (const [i, d] of devices.entries())
      await addChatKey(
        store,
        'owner_k',
        { publicKey: Buffer.from(d.publicKey).toString('base64'), label: `device ${i}` },
        20,
      );
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const addr = server.address();
    url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/hook`;
  });
  afterAll(async () => {
    await store?.close();
    server?.close();
  });

  const input = (over: Partial<Parameters<typeof deliver>[2]> = {}) => ({
    ownerId: 'owner_k',
    chatId: 'chat_k',
    title: 'Domains',
    message: 'SECRET-PLAIN 3 domains found',
    taskId: 'task_k1',
    stepId: 'notify',
    ...over,
  });

  const open = (ciphertext: string, d: { publicKey: Uint8Array; privateKey: Uint8Array }) =>
    JSON.parse(
      sodium.to_string(
        sodium.crypto_box_seal_open(Buffer.from(ciphertext, 'base64'), d.publicKey, d.privateKey),
      ),
    ) as unknown;

  it('stores one sealed copy per chat key and no plaintext; the output names no content', async () => {
    const res = await deliver(store, TEST_KEYRING, input(), LOOPBACK_OK);
    const id = messageIdFor('task_k1', 'notify');
    expect(res).toEqual({
      message_id: id,
      chat_id: 'chat_k',
      sealed_to: 2,
      stored: true,
      webhook_delivered: false,
    });
    const row = await store.db
      .selectFrom('chat_messages')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.content_sealed).toBeNull();
    expect(JSON.stringify(row)).not.toContain('SECRET-PLAIN');
    const copies = JSON.parse(row.content_to_keys!) as { keyId: string; ciphertext: string }[];
    expect(copies).toHaveLength(2);
    for (const [i, d] of devices.entries())
      expect(open(copies[i]!.ciphertext, d)).toEqual({
        message_id: id,
        title: 'Domains',
        message: 'SECRET-PLAIN 3 domains found',
      });
    // A device cannot open another device's copy.
    expect(() => open(copies[0]!.ciphertext, devices[1]!)).toThrow();

    // A retried activity keeps the first copies (sealing again would give other ciphertexts).
    await deliver(store, TEST_KEYRING, input(), LOOPBACK_OK);
    const again = await store.db.selectFrom('chat_messages').selectAll().where('id', '=', id).execute();
    expect(again).toHaveLength(1);
    expect(again[0]!.content_to_keys).toBe(row.content_to_keys);
  });

  it('posts the sealed form to the webhook', async () => {
    await store.db
      .insertInto('chats')
      .values({
        chat_id: 'chat_kh',
        owner_id: 'owner_k',
        focus_mode: null,
        webhook_url_sealed: sealJson(TEST_KEYRING, url, sealedCell.chatWebhookUrl('chat_kh', 'owner_k')),
      })
      .execute();
    const res = await deliver(
      store,
      TEST_KEYRING,
      input({ chatId: 'chat_kh', taskId: 'task_k2' }),
      LOOPBACK_OK,
    );
    expect(res.webhook_delivered).toBe(true);
    expect(received).toHaveLength(1);
    const body = received[0] as { sealed: { key_id: string; ciphertext: string }[] };
    expect(Object.keys(body).sort()).toEqual(['chat_id', 'message_id', 'sealed', 'step_id', 'task_id']);
    expect(JSON.stringify(body)).not.toContain('SECRET-PLAIN');
    expect(open(body.sealed[1]!.ciphertext, devices[1]!)).toMatchObject({ title: 'Domains' });
  });

  it('fails with CHAT_KEY_MISSING, storing nothing, for an owner without a chat key', async () => {
    const err = await deliver(
      store,
      TEST_KEYRING,
      input({ ownerId: 'owner_nokey', taskId: 'task_k3' }),
      LOOPBACK_OK,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChatKeyMissingError);
    expect(err).toMatchObject({ code: 'CHAT_KEY_MISSING', retryable: false });
    const rows = await store.db
      .selectFrom('chat_messages')
      .select('id')
      .where('task_id', '=', 'task_k3')
      .execute();
    expect(rows).toEqual([]);
  });
});
