/**
 * `npm start` as a user runs it (scripts/start.mjs): reaches a healthy /v1/health, stops every
 * process it started on SIGTERM, and a second start reuses .data/ without losing anything.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config.js';
import { loadKeyring } from '../../lib/crypto/keyring.js';
import { connectTemporal } from '../../lib/temporal/client.js';
import { activityPolicy } from '../../activities/policy.js';
import { freePort } from '../helpers/ports.js';
import { processesMentioning } from '../helpers/stack.js';

interface Started {
  child: ChildProcess;
  output: () => string;
}

function start(env: NodeJS.ProcessEnv): Started {
  let out = '';
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'scripts/start.mjs')], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return { child, output: () => out };
}

async function waitHealthy(port: number, s: Started, ms: number): Promise<unknown> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (s.child.exitCode !== null) throw new Error(`npm start exited early:\n${s.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/health`);
      const body = await res.json();
      if (res.status === 200) return body;
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  throw new Error(`not healthy within ${ms} ms:\n${s.output()}`);
}

async function stop(s: Started): Promise<number | null> {
  s.child.kill('SIGTERM');
  const until = Date.now() + 30_000;
  while (s.child.exitCode === null && Date.now() < until) await sleep(100);
  return s.child.exitCode;
}

describe('npm start', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let port: number;
  let temporalPort: number;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillflow-start-'));
    port = await freePort();
    temporalPort = await freePort();
    env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      // Polls health faster than the public per-IP limit allows.
      PUBLIC_RATE_LIMIT_PER_MINUTE: '0',
      TEMPORAL_DEV_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(await freePort()),
      TEMPORAL_ADDRESS: '',
      DATABASE_URL: '',
      SKILLFLOW_ENCRYPTION_KEY: '',
      LOG_LEVEL: 'warn',
    };
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts healthy, stops everything, and restarts on the same data', async () => {
    const first = start(env);
    const health = await waitHealthy(port, first, 120_000);
    expect(health).toEqual({ status: 'up' });
    // The API answers health as soon as it listens; the banner follows once definitions are loaded.
    for (let i = 0; i < 100 && !first.output().includes('Press Ctrl-C to stop.'); i++) await sleep(100);
    // The development key holds the admin scope: it reads the health details.
    const devKey = readFileSync(path.join(dataDir, 'dev-api-key'), 'utf8').trim();
    const details = await fetch(`http://127.0.0.1:${port}/v1/health/details`, {
      headers: { authorization: `Bearer ${devKey}` },
    }).then((r) => r.json());
    expect(details).toEqual({
      status: 'ok',
      checks: {
        api: { status: 'up' },
        store: { status: 'up', engine: 'pglite' },
        temporal: { status: 'up', namespace: 'default' },
        worker: { status: 'up', task_queue: 'skillflow', pollers: expect.any(Number) },
      },
    });
    expect(first.output()).toContain(`API           http://127.0.0.1:${port}/v1`);
    expect(first.output()).toContain('OpenAPI docs');
    // The web workspace: built by npm start when missing or stale (scripts/build-web.mjs), served at /.
    expect(first.output()).toContain(
      `Workspace     http://127.0.0.1:${port}/  (web workspace; sign in with the API key below)`,
    );
    // The banner shows the development key itself, and a one-time sign-in link that signs in
    // once, as that key.
    expect(first.output()).toContain(`  API key       ${devKey}\n`);
    const link = new RegExp(
      `Sign in       http://127\\.0\\.0\\.1:${port}/#sign-in/(sic_[A-Za-z0-9_-]{43})  `,
    ).exec(first.output());
    expect(link).not.toBeNull();
    const exchange = (code: string) =>
      fetch(`http://127.0.0.1:${port}/v1/sessions/exchange`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code }),
      });
    const signedIn = await exchange(link![1]!);
    expect(signedIn.status).toBe(201);
    expect(signedIn.headers.getSetCookie()[0]).toMatch(/^skillflow_session=ses_/);
    expect((await exchange(link![1]!)).status).toBe(401);
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<div id="root"></div>');
    expect(first.output()).toContain('Temporal UI   http://127.0.0.1:');
    const temporalPid = Number(readFileSync(path.join(dataDir, 'temporal.pid'), 'utf8'));
    const key = readFileSync(path.join(dataDir, 'encryption.key'), 'utf8');

    // A workflow on a queue nobody polls stays open across the restart.
    const keyring = loadKeyring(undefined, dataDir);
    const t1 = await connectTemporal(`127.0.0.1:${temporalPort}`, 'default', keyring);
    const workflowId = `persist-${randomUUID()}`;
    const handle = await t1.client.workflow.start('runSkillCall', {
      taskQueue: 'nobody-polls-this',
      workflowId,
      args: [
        { skill: 'echo.shout', input: { requests: [{ text: 'kept' }] }, policy: activityPolicy('local') },
      ],
    });
    await t1.close();

    expect(await stop(first)).toBe(0);
    expect(() => process.kill(temporalPid, 0)).toThrow();
    expect(processesMentioning(dataDir)).toEqual([]);
    expect(existsSync(path.join(dataDir, 'temporal.pid'))).toBe(false);

    const second = start(env);
    try {
      await waitHealthy(port, second, 120_000);
      expect(readFileSync(path.join(dataDir, 'encryption.key'), 'utf8')).toBe(key);
      const t2 = await connectTemporal(`127.0.0.1:${temporalPort}`, 'default', keyring);
      const desc = await t2.client.workflow.getHandle(workflowId).describe();
      expect(desc.status.name).toBe('RUNNING');
      expect(desc.runId).toBe(handle.firstExecutionRunId);
      await t2.client.workflow.getHandle(workflowId).terminate('test done');
      await t2.close();
    } finally {
      expect(await stop(second)).toBe(0);
    }
    expect(processesMentioning(dataDir)).toEqual([]);
  }, 300_000);

  it('says why and exits non-zero when its Temporal server dies', async () => {
    const s = start(env);
    await waitHealthy(port, s, 120_000);
    const temporalPid = Number(readFileSync(path.join(dataDir, 'temporal.pid'), 'utf8'));
    process.kill(temporalPid, 'SIGKILL');
    const until = Date.now() + 60_000;
    while (s.child.exitCode === null && Date.now() < until) await sleep(100);
    expect(s.child.exitCode).toBe(1);
    expect(s.output()).toContain(
      `skillflow: the Temporal dev server exited unexpectedly (signal SIGKILL); its log: ${path.join(dataDir, 'temporal.log')}`,
    );
    expect(s.output()).toContain('skillflow: the service stopped with exit code 1');
    expect(processesMentioning(dataDir)).toEqual([]);
  }, 200_000);

  it('stops everything when the npm process gets SIGINT, as Ctrl-C does', async () => {
    let out = '';
    const npm = spawn('npm', ['start'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    npm.stdout.on('data', (d: Buffer) => (out += d.toString()));
    npm.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await waitHealthy(port, { child: npm, output: () => out }, 120_000);
      // npm runs the script through `sh -c`; the script execs node, so npm's own signal
      // forwarding reaches scripts/start.mjs.
      npm.kill('SIGINT');
      const until = Date.now() + 60_000;
      while (npm.exitCode === null && npm.signalCode === null && Date.now() < until) await sleep(100);
      expect(npm.exitCode === null && npm.signalCode === null).toBe(false);
      expect(out).toContain('skillflow: stopping (SIGINT)');
      for (let i = 0; i < 50 && processesMentioning(dataDir).length > 0; i++) await sleep(100);
      expect(processesMentioning(dataDir)).toEqual([]);
    } finally {
      // A failed stop must not leave the service running after the test.
      npm.kill('SIGKILL');
      for (const line of processesMentioning(dataDir)) {
        try {
          process.kill(Number(line.split(':')[0]), 'SIGKILL');
        } catch {
          // exited meanwhile
        }
      }
    }
  }, 200_000);
});
