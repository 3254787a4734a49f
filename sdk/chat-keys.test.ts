/**
 * Reading chats in the JS SDK: what the worker seals (lib/crypto/chat-seal.ts) opens with the
 * device's private key and nothing else; a copy naming another message is refused; server-sealed
 * content (CHAT_SERVER_SEALED) passes through; and the private key never goes into a request.
 */
import { describe, expect, it } from 'vitest';
import { sealToKeys } from '../lib/crypto/chat-seal.js';
import { chatPublicKeyOf, generateChatKeyPair, openChatMessages } from './chat-keys.js';
import { createChatsClient } from './chats.js';
import type { RequestSpec, Transport } from './http.js';

const listed = (message_id: string, sealed: { keyId: string; ciphertext: string }[]) => ({
  message_id,
  sealed: sealed.map((c) => ({ key_id: c.keyId, ciphertext: c.ciphertext })),
  task_id: 'task_1',
  step_id: 'notify',
  created_at: '2026-11-27T10:00:00.000Z',
  webhook_delivered: false,
});

describe('chat keys in the JS SDK', () => {
  it('makes X25519 key pairs whose public key derives from the private one', async () => {
    const pair = await generateChatKeyPair();
    expect(pair.publicKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(await chatPublicKeyOf(pair.privateKey)).toBe(pair.publicKey);
    expect((await generateChatKeyPair()).privateKey).not.toBe(pair.privateKey);
  });

  it('opens the copy sealed to its key, refuses other keys and copies of another message', async () => {
    const [a, b] = [await generateChatKeyPair(), await generateChatKeyPair()];
    const copies = await sealToKeys({ message_id: 'msg_1', title: 'T', message: 'hello' }, [
      { id: 'ck_a', publicKey: a.publicKey },
      { id: 'ck_b', publicKey: b.publicKey },
    ]);
    const { sealed: _sealed, ...meta } = listed('msg_1', copies);
    expect(await openChatMessages([listed('msg_1', copies)], b.privateKey)).toEqual([
      { ...meta, readable: true, title: 'T', message: 'hello' },
    ]);
    const stranger = await generateChatKeyPair();
    expect(await openChatMessages([listed('msg_1', copies)], stranger.privateKey)).toEqual([
      { ...meta, readable: false },
    ]);
    // A copy moved under another message id is not accepted.
    expect(await openChatMessages([listed('msg_2', copies)], a.privateKey)).toMatchObject([
      { message_id: 'msg_2', readable: false },
    ]);
    // Server-sealed content (the development mode) comes as it is.
    expect(
      await openChatMessages([{ ...listed('msg_3', []), title: 'S', message: 'plain' }], a.privateKey),
    ).toMatchObject([{ readable: true, title: 'S', message: 'plain' }]);
  });

  it('never sends the private key', async () => {
    const pair = await generateChatKeyPair();
    const sent: RequestSpec[] = [];
    const http: Transport = {
      baseUrl: 'http://api.test',
      send: <T>(spec: RequestSpec) => {
        sent.push(spec);
        const body = spec.path === '/v1/chats/messages' ? { chat_id: 'c', messages: [] } : {};
        return Promise.resolve({ status: 200, body: body as T });
      },
    };
    const chats = createChatsClient(http);
    await chats.registerKey(pair.publicKey, 'laptop');
    await chats.messages('c', { privateKey: pair.privateKey, limit: 5 });
    expect(sent.map((s) => s.json)).toEqual([
      { public_key: pair.publicKey, label: 'laptop' },
      { chat_id: 'c', limit: 5 },
    ]);
    expect(JSON.stringify(sent)).not.toContain(pair.privateKey);
  });
});
