import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openJson, sealJson } from '../../lib/crypto/aead.js';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import { openStore, type Store } from '../../lib/store/db.js';
import { TEST_KEYRING } from '../../test/helpers/fixtures.js';
import { deliver, MAX_MESSAGE_CHARS, messageIdFor } from './chat-delivery.js';

/** A real webhook receiver on loopback whose answer status can be set per test. */
describe('chat delivery', () => {
  let store: Store;
  let server: Server;
  let url: string;
  let status = 200;
  let received: { headers: IncomingMessage['headers']; body: unknown }[] = [];

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
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const addr = server.address();
    url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/hook`;
  });
  afterAll(async () => {
    await store?.close();
    server?.close();
  });
  beforeEach(() => {
    received = [];
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
    const first = await deliver(store, TEST_KEYRING, input());
    const again = await deliver(store, TEST_KEYRING, input());
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
    expect(openJson(TEST_KEYRING, rows[0]!.content_sealed)).toEqual({
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
        webhook_url_sealed: sealJson(TEST_KEYRING, url),
      })
      .execute();
    const res = await deliver(store, TEST_KEYRING, input({ chatId: 'chat_hook', taskId: 'task_2' }));
    await deliver(store, TEST_KEYRING, input({ chatId: 'chat_hook', taskId: 'task_2' }));
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

  it('fails without retry on a 4xx answer and retryably on a 5xx answer; the message stays stored', async () => {
    status = 404;
    const rejected = await deliver(
      store,
      TEST_KEYRING,
      input({ chatId: 'chat_hook', taskId: 'task_3' }),
    ).catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(SkillflowError);
    expect((rejected as SkillflowError).code).toBe('DELIVERY_REJECTED');
    expect((rejected as SkillflowError).retryable).toBe(false);
    status = 503;
    const down = await deliver(store, TEST_KEYRING, input({ chatId: 'chat_hook', taskId: 'task_4' })).catch(
      (e: unknown) => e,
    );
    expect((down as SkillflowError).code).toBe('UPSTREAM_UNAVAILABLE');
    expect((down as SkillflowError).retryable).toBe(true);
    expect(
      await store.db
        .selectFrom('chat_messages')
        .select('id')
        .where('task_id', 'in', ['task_3', 'task_4'])
        .execute(),
    ).toHaveLength(2);
  });

  it('never posts another owner’s message to a chat webhook', async () => {
    const res = await deliver(
      store,
      TEST_KEYRING,
      input({ chatId: 'chat_hook', taskId: 'task_5', ownerId: 'owner_b' }),
    );
    expect(res.webhook_delivered).toBe(false);
    expect(received).toEqual([]);
  });

  it('bounds a huge rendered message', async () => {
    await deliver(store, TEST_KEYRING, input({ taskId: 'task_6', message: 'x'.repeat(100_000) }));
    const row = await store.db
      .selectFrom('chat_messages')
      .selectAll()
      .where('task_id', '=', 'task_6')
      .executeTakeFirstOrThrow();
    const content = openJson<{ message: string }>(TEST_KEYRING, row.content_sealed);
    expect(content.message).toHaveLength(MAX_MESSAGE_CHARS);
    expect(content.message.endsWith(' …[truncated]')).toBe(true);
  });
});
