/**
 * The API contract, proven by Schemathesis against the real stack (`npm start` on free loopback
 * ports with the simulators): every phase (examples, coverage, fuzzing, stateful through the
 * document's own links) and every check, with a key holding every scope. Zero failures means no
 * 5xx, every error in the envelope, every status documented, and schemas that match what the
 * server accepts and rejects. Run alone with `npm run test:contract`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSchemathesis } from '../helpers/schemathesis.js';
import { startStack, type RunningStack } from '../helpers/stack.js';

const HIGH = '100000000';

describe('the API contract (Schemathesis)', () => {
  let stack: RunningStack;
  let token: string;
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'skillflow-contract-'));

  beforeAll(async () => {
    // Fuzzing sends thousands of requests: lift the per-key and per-guest limits out of the way.
    stack = await startStack({
      env: {
        RATE_LIMIT_PRO_PER_MINUTE: HIGH,
        ANONYMOUS_IDENTITY_DAILY_CREDITS: HIGH,
        ANONYMOUS_IDENTITY_WEEKLY_CREDITS: HIGH,
        ANONYMOUS_IDENTITY_MONTHLY_CREDITS: HIGH,
        ANONYMOUS_IP_DAILY_CREDITS: HIGH,
        ANONYMOUS_IP_WEEKLY_CREDITS: HIGH,
        ANONYMOUS_IP_MONTHLY_CREDITS: HIGH,
      },
    });
    const res = await fetch(`${stack.url}/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'contract', scopes: ['*'], tier: 'pro' }),
    });
    expect(res.status).toBe(201);
    token = ((await res.json()) as { token: string }).token;
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
    rmSync(reportDir, { recursive: true, force: true });
  });

  it('finds no failure in any phase or check', async () => {
    const run = await runSchemathesis({
      baseUrl: stack.url,
      token,
      seed: 20_261_123,
      maxExamples: 25,
      reportDir,
    });
    process.stdout.write(`Schemathesis: ${run.summary}\n`);
    // On failure the whole report is the message: every failing case with its curl line.
    expect(run.code, run.output).toBe(0);
    expect(run.summary, run.output).toMatch(/^=+ .* in [\d.]+s =+$/);
    expect(run.summary, run.output).not.toMatch(/failure|error/);
    // The stateful phase ran on the declared links (inference is off in the config).
    expect(run.output).toMatch(/API Links:\s+\d+ covered \/ \d+ selected \/ \d+ total/);
    const [, covered] = /API Links:\s+(\d+) covered/.exec(run.output)!;
    expect(Number(covered)).toBeGreaterThan(0);
  }, 900_000);
});
