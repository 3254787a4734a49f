import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openJson, sealJson } from '../../lib/crypto/sealed-value.js';
import type { WebhookPolicy } from '../../lib/net/webhook.js';
import { openStore, type Store } from '../../lib/store/db.js';
import { sealedCell } from '../../lib/store/sealed-columns.js';
import { TEST_KEYRING, TEST_RESOLVE } from '../../test/helpers/fixtures.js';
import {
  deliver as deliverTo,
  MAX_MESSAGE_CHARS,
  messageIdFor,
  WebhookDeliveryError,
} from './chat-delivery.js';

/** The development mode CHAT_SERVER_SEALED: these tests read what the server sealed. */
const deliver = (...[store, keyring, input, policy, signal]: Parameters<typeof deliverTo>) =>
  deliverTo(store, keyring, input, policy, signal, { serverSealed: true });

/** Loopback receivers are opted in here, as WEBHOOK_ALLOW_LOOPBACK does; names resolve from a table. */
const LOOPBACK_OK: WebhookPolicy = { allowLoopback: true, resolve: TEST_RESOLVE };
const DEFAULT_POLICY: WebhookPolicy = { allowLoopback: false, resolve: TEST_RESOLVE };

/** A real webhook receiver on loopback whose answer status can be set per test. */
describe('chat delivery, server-sealed (CHAT_SERVER_SEALED)', () => {
  let store: Store;
  let server: Server;
  let url: string;
  let status = 200;
  let received: { headers: IncomingMessage['headers']; body: unknown }[] = [];
  let connections = 0;
  let port = 0;

  beforeAll(async () => {
    store = await openStore({ pgliteDir: 'memory://' });
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body: JSON.parse(body) });
        res.writeHead(status).end();
      });
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const addr = server.address();
    port = typeof addr === 'object' && addr ? addr.port : 0;
    url = `http://127.0.0.1:${port}/hook`;
  });
  afterAll(async () => {
    await store?.close();
    server?.close();
  });
  beforeEach(() => {
    received = [];
    connections = 0;
    status = 200;
  });

  const input = (over: Partial<Parameters<typeof deliver>[2]> = {}) => ({
    ownerId: 'owner_a',
    chatId: 'chat_plain',
    title: 'Domains',
    message: '3 domains found',
    taskId: 'task_1',
    stepId: 'notify',
    ...over,
  });

  it('stores the message sealed, once per run and step, without a webhook', async () => {
    const first = await deliver(store, TEST_KEYRING, input(), LOOPBACK_OK);
    const again = await deliver(store, TEST_KEYRING, input(), LOOPBACK_OK);
    expect(first).toEqual({
      message_id: messageIdFor('task_1', 'notify'),
      chat_id: 'chat_plain',
      title: 'Domains',
      message: '3 domains found',
      stored: true,
      webhook_delivered: false,
    });
    expect(again).toEqual(first);
    const rows = await store.db
      .selectFrom('chat_messages')
      .selectAll()
      .where('task_id', '=', 'task_1')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.content_sealed).not.toContain('domains found');
    expect(
      openJson(TEST_KEYRING, rows[0]!.content_sealed!, sealedCell.chatMessage(rows[0]!.id, 'owner_a')),
    ).toEqual({
      title: 'Domains',
      message: '3 domains found',
    });
  });

  it('posts to the chat webhook once, even when the activity is retried', async () => {
    await store.db
      .insertInto('chats')
      .values({
        chat_id: 'chat_hook',
        owner_id: 'owner_a',
        focus_mode: null,
        webhook_url_sealed: sealJson(TEST_KEYRING, url, sealedCell.chatWebhookUrl('chat_hook', 'owner_a')),
      })
      .execute();
    const res = await deliver(
      store,
      TEST_KEYRING,
      input({ chatId: 'chat_hook', taskId: 'task_2' }),
      LOOPBACK_OK,
    );
    await deliver(store, TEST_KEYRING, input({ chatId: 'chat_hook', taskId: 'task_2' }), LOOPBACK_OK);
    expect(res.webhook_delivered).toBe(true);
    expect(received).toHaveLength(1);
    expect(received[0]!.body).toEqual({
      message_id: messageIdFor('task_2', 'notify'),
      chat_id: 'chat_hook',
      task_id: 'task_2',
      step_id: 'notify',
      title: 'Domains',
      message: '3 domains found',
    });
    expect(received[0]!.headers['content-type']).toBe('application/json');
  });

  it('fails with one generic error: final on a 4xx or 3xx answer, retryable on a 5xx; the message stays stored', async () => {
    const attempt = (taskId: string) =>
      deliver(store, TEST_KEYRING, input({ chatId: 'chat_hook', taskId }), LOOPBACK_OK).catch(
        (e: unknown) => e,
      );
    const outcomes: Array<[number, boolean]> = [];
    for (const [taskId, answer] of [
      ['task_3', 404],
      ['task_3b', 302],
      ['task_4', 503],
    ] as const) {
      status = answer;
      const err = await attempt(taskId);
      expect(err).toBeInstanceOf(WebhookDeliveryError);
      expect(err).toMatchObject({
        code: 'WEBHOOK_DELIVERY_FAILED',
        message: 'The message could not be delivered to the chat webhook.',
        details: {},
      });
      outcomes.push([answer, (err as WebhookDeliveryError).retryable]);
    }
    expect(outcomes).toEqual([
      [404, false],
      [302, false],
      [503, true],
    ]);
    expect(
      await store.db
        .selectFrom('chat_messages')
        .select('id')
        .where('task_id', 'in', ['task_3', 'task_3b', 'task_4'])
        .execute(),
    ).toHaveLength(3);
  });

  it('refuses a loopback receiver without the opt-in, and never connects to it', async () => {
    const err = await deliver(
      store,
      TEST_KEYRING,
      input({ chatId: 'chat_hook', taskId: 'task_7' }),
      DEFAULT_POLICY,
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'WEBHOOK_DELIVERY_FAILED', retryable: false, details: {} });
    expect(connections).toBe(0);
    expect(received).toEqual([]);
  });

  it.each([
    ['a name that resolves to a private address', 'internal.example.test'],
    ['a name with one private address among public ones', 'mixed.example.test'],
    ['a name that resolves to the metadata address', 'metadata.example.test'],
    ['a name that resolves to an IPv4-mapped private address', 'mapped.example.test'],
    ['a name that resolves to the IPv6 metadata address', 'ula.example.test'],
  ])('re-checks at delivery and refuses %s before any connection', async (_what, host) => {
    // Even with loopback opted in: the registered URL now resolves somewhere forbidden.
    const chatId = `chat_${host.split('.')[0]}`;
    await store.db
      .insertInto('chats')
      .values({
        chat_id: chatId,
        owner_id: 'owner_a',
        focus_mode: null,
        webhook_url_sealed: sealJson(
          TEST_KEYRING,
          `https://${host}/hook`,
          sealedCell.chatWebhookUrl(chatId, 'owner_a'),
        ),
      })
      .execute();
    const err = await deliver(
      store,
      TEST_KEYRING,
      input({ chatId, taskId: `task_${host}` }),
      LOOPBACK_OK,
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'WEBHOOK_DELIVERY_FAILED', retryable: false });
    expect(connections).toBe(0);
  });

  it('connects to the checked address: a name pinned to loopback reaches the loopback receiver', async () => {
    const hostUrl = `http://loopback.example.test:${port}/hook`;
    await store.db
      .insertInto('chats')
      .values({
        chat_id: 'chat_named',
        owner_id: 'owner_a',
        focus_mode: null,
        webhook_url_sealed: sealJson(
          TEST_KEYRING,
          hostUrl,
          sealedCell.chatWebhookUrl('chat_named', 'owner_a'),
        ),
      })
      .execute();
    const res = await deliver(
      store,
      TEST_KEYRING,
      input({ chatId: 'chat_named', taskId: 'task_8' }),
      LOOPBACK_OK,
    );
    expect(res.webhook_delivered).toBe(true);
    expect(received).toHaveLength(1);
    expect(received[0]!.headers.host).toBe(`loopback.example.test:${port}`);
  });

  it('never posts another owner’s message to a chat webhook', async () => {
    const res = await deliver(
      store,
      TEST_KEYRING,
      input({ chatId: 'chat_hook', taskId: 'task_5', ownerId: 'owner_b' }),
      LOOPBACK_OK,
    );
    expect(res.webhook_delivered).toBe(false);
    expect(received).toEqual([]);
  });

  it('bounds a huge rendered message', async () => {
    await deliver(
      store,
      TEST_KEYRING,
      input({ taskId: 'task_6', message: 'x'.repeat(100_000) }),
      LOOPBACK_OK,
    );
    const row = await store.db
      .selectFrom('chat_messages')
      .selectAll()
      .where('task_id', '=', 'task_6')
      .executeTakeFirstOrThrow();
    const content = openJson<{ message: string }>(
      TEST_KEYRING,
      row.content_sealed!,
      sealedCell.chatMessage(row.id, 'owner_a'),
    );
    expect(content.message).toHaveLength(MAX_MESSAGE_CHARS);
    expect(content.message.endsWith(' …[truncated]')).toBe(true);
  });
});
