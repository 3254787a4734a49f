/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * Chat content end-to-end encrypted to its owner, over real HTTP with a real Temporal test server
 * and worker (CHAT_SERVER_SEALED off, the default): three devices register chat keys (the CLI's
 * `chats init`, the JS SDK, the Python SDK), a run delivers a message, the store and every API
 * body hold only ciphertext, and each client shows the decrypted text. An owner without a key
 * gets CHAT_KEY_MISSING on the step; bad key registrations get whole error envelopes.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config.js';
import { provisionPythonSdkVenv, PYTHON_SDK_DIR, type PythonSdkVenv } from '../../sdk/codegen/python-venv.js';
import {
  createClient,
  generateChatKeyPair,
  readChatKeyFile,
  type ChatKeyPair,
  type SkillflowClient,
} from '../../sdk/index.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { runCli } from '../helpers/stack.js';

const MARKER = 'PLAINTEXT-MARKER';
const DEFINITION = `title: Sealed chat
start_when:
  manual: {}
steps:
  - id: notify
    send_chat_message:
      title: Sealed title
      message: '${MARKER} 3 domains found'
      chat_id: sealed-chat
`;

/** Runs a Python snippet with the SDK's venv; resolves to its stdout. */
function python(venv: PythonSdkVenv, code: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      venv.python,
      ['-c', code],
      { cwd: path.join(PROJECT_ROOT, PYTHON_SDK_DIR), env: { ...process.env, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => (err ? reject(new Error(stderr || err.message)) : resolve(stdout)),
    ),
  );
}

describe('chat content sealed to its owner', () => {
  let h: EngineHarness;
  let base: string;
  let sdk: SkillflowClient;
  let venv: PythonSdkVenv;
  let tmp: string;
  let keyFile: string;
  let jsPair: ChatKeyPair;
  let pyPrivate: string;
  const cli = (...args: string[]) =>
    runCli(args, { SKILLFLOW_URL: base, SKILLFLOW_API_KEY: h.token, SKILLFLOW_CHAT_KEY_FILE: keyFile });

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'skillflow-chat-keys-'));
    keyFile = path.join(tmp, 'config', 'chat-key.json');
    [venv, h] = await Promise.all([
      provisionPythonSdkVenv({
        rootDir: PROJECT_ROOT,
        log: (m) => process.stderr.write(`python-sdk: ${m}\n`),
      }),
      startEngine({ config: { CHAT_SERVER_SEALED: false, RATE_LIMIT_STANDARD_PER_MINUTE: 1_000_000 } }),
    ]);
    await h.startWorker();
    await h.api.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.api.app.server.address() as AddressInfo).port}`;
    sdk = createClient({ baseUrl: base, token: h.token });
  }, 400_000);
  afterAll(async () => {
    await h?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  async function finished(taskId: string, token: string) {
    for (let i = 0; i < 300; i++) {
      const t = await h.request('GET', `/v1/tasks/${taskId}`, undefined, undefined, token);
      if (['completed', 'failed'].includes(t.json.status)) return t.json;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`task ${taskId} did not end`);
  }

  async function run(token = h.token) {
    const created = await h.request('POST', '/v1/workflows', DEFINITION, 'application/yaml', token);
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const started = await h.request(
      'POST',
      `/v1/workflows/${created.json.id}/runs`,
      { inputs: {} },
      undefined,
      token,
    );
    expect(started.status, JSON.stringify(started.json)).toBe(202);
    return finished(started.json.task_id, token);
  }

  it('without a chat key, the step fails with CHAT_KEY_MISSING and nothing is stored', async () => {
    const done = await run(h.otherToken);
    const message =
      'The chat owner has no chat key registered, so the message cannot be sealed to them. Run `skillflow chats init` or open the workspace once, then run again.';
    expect(done.status).toBe('failed');
    expect(done.steps[0]).toMatchObject({
      id: 'notify',
      status: 'failed',
      error: { code: 'CHAT_KEY_MISSING', message },
    });
    expect(done.error).toEqual({
      code: 'CHAT_KEY_MISSING',
      message: `A step failed: ${message}`,
      details: { step: 'notify' },
    });
    expect(await h.chatMessage(done.task_id)).toBeUndefined();
  });

  it('registers keys from the CLI, the JS SDK and the Python SDK; the private keys stay on the devices', async () => {
    const init = await cli('chats', 'init', '--label', 'laptop');
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout).toMatch(
      new RegExp(
        `^created chat key file ${keyFile.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(keep it private; it cannot be recovered\\)\nregistered chat key ck_[0-9a-f]{24}: messages delivered from now on can be read here\n$`,
      ),
    );
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(keyFile)).mode & 0o777).toBe(0o700);
    // Again: the same file and the same key.
    const again = await cli('chats', 'init');
    expect(again.stdout).toMatch(/^using chat key file /);

    jsPair = await generateChatKeyPair();
    const jsKey = await sdk.chats.registerKey(jsPair.publicKey, 'js');
    expect(jsKey).toEqual({
      key_id: expect.stringMatching(/^ck_/),
      public_key: jsPair.publicKey,
      label: 'js',
      created_at: expect.any(String),
    });
    expect(await sdk.chats.registerKey(jsPair.publicKey, 'js')).toEqual(jsKey);

    const py = JSON.parse(
      await python(
        venv,
        `import json, os
from skillflow import Client, generate_chat_key_pair
pair = generate_chat_key_pair()
with Client(os.environ["SF_URL"], token=os.environ["SF_TOKEN"]) as c:
    key = c.chats.register_key(pair.public_key, "python")
print(json.dumps({"private_key": pair.private_key, "key": key}))`,
        { SF_URL: base, SF_TOKEN: h.token },
      ),
    ) as { private_key: string; key: { label: string } };
    pyPrivate = py.private_key;
    expect(py.key.label).toBe('python');

    const listed = await h.request('GET', '/v1/chats/keys');
    expect(listed.status).toBe(200);
    expect(listed.json.max).toBe(20);
    expect(listed.json.keys.map((k: any) => k.label)).toEqual(['laptop', 'js', 'python']);
    const cliPrivate = (JSON.parse(readFileSync(keyFile, 'utf8')) as { private_key: string }).private_key;
    const rows = JSON.stringify(await h.api.deps.store.db.selectFrom('chat_keys').selectAll().execute());
    for (const secret of [cliPrivate, jsPair.privateKey, pyPrivate]) {
      expect(rows).not.toContain(secret);
      expect(listed.body).not.toContain(secret);
    }
  });

  it('delivers only ciphertext: the store, the run and the REST body cannot show the message; every client decrypts it', async () => {
    const done = await run();
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect(done.result.outputs.notify).toEqual({
      message_id: expect.stringMatching(/^msg_/),
      chat_id: 'sealed-chat',
      sealed_to: 3,
      stored: true,
      webhook_delivered: false,
    });
    expect(JSON.stringify(done)).not.toContain(MARKER);

    const row = await h.api.deps.store.db
      .selectFrom('chat_messages')
      .selectAll()
      .where('task_id', '=', done.task_id)
      .executeTakeFirstOrThrow();
    expect(row.content_sealed).toBeNull();
    expect(JSON.stringify(row)).not.toContain(MARKER);
    expect(JSON.stringify(row)).not.toContain('Sealed title');

    const rest = await h.request('POST', '/v1/chats/messages', { chat_id: 'sealed-chat' });
    expect(rest.status).toBe(200);
    expect(rest.body).not.toContain(MARKER);
    expect(rest.body).not.toContain('Sealed title');
    const [m] = rest.json.messages;
    expect(Object.keys(m).sort()).toEqual([
      'created_at',
      'message_id',
      'sealed',
      'step_id',
      'task_id',
      'webhook_delivered',
    ]);
    expect(m.sealed).toHaveLength(3);
    const cliPrivate = (JSON.parse(readFileSync(keyFile, 'utf8')) as { private_key: string }).private_key;
    for (const secret of [cliPrivate, jsPair.privateKey, pyPrivate]) expect(rest.body).not.toContain(secret);

    // JS SDK
    const read = await sdk.chats.messages('sealed-chat', { privateKey: jsPair.privateKey });
    expect(read).toEqual([
      {
        message_id: m.message_id,
        readable: true,
        title: 'Sealed title',
        message: `${MARKER} 3 domains found`,
        task_id: done.task_id,
        step_id: 'notify',
        created_at: m.created_at,
        webhook_delivered: false,
      },
    ]);
    // A key that was never registered reads nothing.
    const stranger = await generateChatKeyPair();
    const { title: _title, message: _message, ...unread } = read[0] as Record<string, unknown>;
    expect(await sdk.chats.messages('sealed-chat', { privateKey: stranger.privateKey })).toEqual([
      { ...unread, readable: false },
    ]);
    // The JS SDK reads the CLI's key file: one device key for every client.
    const fromFile = await readChatKeyFile(keyFile);
    expect(await sdk.chats.messages('sealed-chat', { privateKey: fromFile!.privateKey })).toEqual(read);

    // CLI
    const shown = await cli('chats', 'read', 'sealed-chat');
    expect([shown.code, shown.stderr]).toEqual([0, '']);
    expect(shown.stdout).toMatch(
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC {2}Sealed title {2}\\(${done.task_id} › notify\\)\\n {2}${MARKER} 3 domains found\\n$`,
      ),
    );
    const json = await cli('chats', 'read', 'sealed-chat', '--json');
    expect(JSON.parse(json.stdout)).toEqual({ chat_id: 'sealed-chat', messages: read });

    // Python SDK
    const py = JSON.parse(
      await python(
        venv,
        `import dataclasses, json, os
from skillflow import Client
with Client(os.environ["SF_URL"], token=os.environ["SF_TOKEN"]) as c:
    print(json.dumps([dataclasses.asdict(m) for m in c.chats.messages("sealed-chat", private_key=os.environ["SF_KEY"])]))`,
        { SF_URL: base, SF_TOKEN: h.token, SF_KEY: pyPrivate },
      ),
    ) as unknown[];
    expect(py).toEqual([{ ...read[0], readable: true }]);
    // ... and so does the Python SDK.
    const pyFromFile = JSON.parse(
      await python(
        venv,
        `import dataclasses, json, os
from skillflow import Client, read_chat_key_file
pair = read_chat_key_file(os.environ["SF_FILE"])
with Client(os.environ["SF_URL"], token=os.environ["SF_TOKEN"]) as c:
    print(json.dumps([dataclasses.asdict(m) for m in c.chats.messages("sealed-chat", private_key=pair.private_key)]))`,
        { SF_URL: base, SF_TOKEN: h.token, SF_FILE: keyFile },
      ),
    ) as unknown[];
    expect(pyFromFile).toEqual(py);
  });

  it('refuses a key file that is not one, naming its path and never its content', async () => {
    const bad = path.join(tmp, 'bad-key.json');
    writeFileSync(bad, 'not json: secret-looking text', { mode: 0o600 });
    const res = await runCli(['chats', 'read', 'sealed-chat'], {
      SKILLFLOW_URL: base,
      SKILLFLOW_API_KEY: h.token,
      SKILLFLOW_CHAT_KEY_FILE: bad,
    });
    expect(res).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: CHAT_KEY_FILE_INVALID: ${bad} is not a skillflow chat key file (JSON with public_key and private_key); move it away and run \`skillflow chats init\` to make a new key\n`,
    });
    writeFileSync(bad, JSON.stringify({ public_key: 'x', private_key: 'secret-looking' }));
    await expect(readChatKeyFile(bad)).rejects.toMatchObject({ code: 'CHAT_KEY_FILE_INVALID' });
    const py = await python(
      venv,
      `import os
from skillflow import SkillflowClientError, read_chat_key_file
try:
    read_chat_key_file(os.environ["SF_FILE"])
except SkillflowClientError as e:
    print(e.code, "secret" in e.message)`,
      { SF_FILE: bad },
    );
    expect(py.trim()).toBe('CHAT_KEY_FILE_INVALID False');
  });

  it('reading without a key file tells the user to run chats init', async () => {
    const res = await runCli(['chats', 'read', 'sealed-chat'], {
      SKILLFLOW_URL: base,
      SKILLFLOW_API_KEY: h.token,
      SKILLFLOW_CHAT_KEY_FILE: path.join(tmp, 'none.json'),
    });
    expect(res).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: CHAT_KEY_MISSING: no chat key file at ${path.join(tmp, 'none.json')}: run \`skillflow chats init\` first (messages are sealed to your chat keys)\n`,
    });
  });

  it('answers bad key registrations with whole error envelopes, and caps keys per owner', async () => {
    const post = (body: unknown) => h.request('POST', '/v1/chats/keys', body, undefined, h.otherToken);
    const invalid = (message: string, issue: Record<string, unknown>) => ({
      status: 400,
      json: { error: { code: 'INVALID_PARAMETER', message, details: { issues: [issue] } } },
    });
    const pick = (r: { status: number; json: any }) => ({ status: r.status, json: r.json });
    // 31 bytes
    expect(pick(await post({ public_key: Buffer.alloc(31, 7).toString('base64') }))).toEqual(
      invalid('Invalid body at public_key: must encode exactly 32 bytes (an X25519 public key)', {
        path: 'public_key',
        message: 'must encode exactly 32 bytes (an X25519 public key)',
        location: 'body',
      }),
    );
    expect(pick(await post({ public_key: 'not base64 at all!' }))).toEqual(
      invalid('Invalid body at public_key: must be base64 or base64url', {
        path: 'public_key',
        message: 'must be base64 or base64url',
        location: 'body',
      }),
    );
    // A low-order point: nothing can be sealed to it.
    expect(pick(await post({ public_key: Buffer.alloc(32).toString('base64') }))).toEqual(
      invalid('Invalid value at public_key: is not a usable X25519 public key', {
        path: 'public_key',
        message: 'is not a usable X25519 public key',
      }),
    );
    // base64url without padding is taken, and listed in standard base64.
    const url = await generateChatKeyPair();
    const asUrl = url.publicKey.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const added = await post({ public_key: asUrl, label: 'url' });
    expect([added.status, added.json.public_key]).toEqual([201, url.publicKey]);
    expect(pick(await post({ public_key: url.publicKey, label: 'tab\there' }))).toEqual(
      invalid('Invalid body at label: must not hold control characters', {
        path: 'label',
        message: 'must not hold control characters',
        location: 'body',
      }),
    );
    expect(
      (await h.request('DELETE', `/v1/chats/keys/${added.json.key_id}`, undefined, undefined, h.otherToken))
        .status,
    ).toBe(204);
    const keys: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await post({ public_key: (await generateChatKeyPair()).publicKey });
      expect(res.status).toBe(201);
      keys.push(res.json.key_id);
    }
    expect(pick(await post({ public_key: (await generateChatKeyPair()).publicKey }))).toEqual({
      status: 429,
      json: {
        error: {
          code: 'OWNER_LIMIT_REACHED',
          message: 'This account may have at most 20 registered chat keys; delete one first.',
          details: { limit: 'chat_keys', max: 20 },
        },
      },
    });
    const del = await h.request('DELETE', `/v1/chats/keys/${keys[0]}`, undefined, undefined, h.otherToken);
    expect(del.status).toBe(204);
    expect(
      pick(await h.request('DELETE', `/v1/chats/keys/${keys[0]}`, undefined, undefined, h.otherToken)),
    ).toEqual({
      status: 404,
      json: { error: { code: 'NOT_FOUND', message: 'No chat key with this id.', details: {} } },
    });
    // Another owner's key is not reachable.
    const mine = (await h.request('GET', '/v1/chats/keys')).json.keys[0].key_id;
    expect(
      (await h.request('DELETE', `/v1/chats/keys/${mine}`, undefined, undefined, h.otherToken)).status,
    ).toBe(404);
    expect((await post({ public_key: (await generateChatKeyPair()).publicKey })).status).toBe(201);
  });
});
