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
import { linksFollowed, runSchemathesis, statusesByOperation } from '../helpers/schemathesis.js';
import { startStack, type RunningStack } from '../helpers/stack.js';

const HIGH = '100000000';
/**
 * Every limit that answers 429 (or queues a call) lifted, so that every operation's logic is
 * reached: tier and public rate limits, anonymous allowances, the encyclopedia's per-key, per-IP
 * and outbound limits, the icon SVG limit, provider limits and their per-owner share, and the
 * owner quotas (README "Configuration"). `0` turns a per-minute limit off; credits get a bound no
 * run reaches.
 */
const CONTRACT_LIMITS: Record<string, string> = {
  RATE_LIMIT_FREE_PER_MINUTE: HIGH,
  RATE_LIMIT_STANDARD_PER_MINUTE: HIGH,
  RATE_LIMIT_PRO_PER_MINUTE: HIGH,
  PUBLIC_RATE_LIMIT_PER_MINUTE: '0',
  HOOK_RATE_LIMIT_PER_MINUTE: '0',
  ANONYMOUS_IDENTITY_DAILY_CREDITS: HIGH,
  ANONYMOUS_IDENTITY_WEEKLY_CREDITS: HIGH,
  ANONYMOUS_IDENTITY_MONTHLY_CREDITS: HIGH,
  ANONYMOUS_IP_DAILY_CREDITS: HIGH,
  ANONYMOUS_IP_WEEKLY_CREDITS: HIGH,
  ANONYMOUS_IP_MONTHLY_CREDITS: HIGH,
  ANONYMOUS_POOL_DAILY_CREDITS: HIGH,
  ANONYMOUS_POOL_WEEKLY_CREDITS: HIGH,
  ANONYMOUS_POOL_MONTHLY_CREDITS: HIGH,
  ENCYCLOPEDIA_OWNER_PER_MINUTE: '0',
  ENCYCLOPEDIA_IP_PER_MINUTE: '0',
  ENCYCLOPEDIA_OUTBOUND_PER_MINUTE: HIGH,
  ICON_SVG_RATE_LIMIT_PER_MINUTE: '0',
  PROVIDER_RATE_LIMITS: '',
  OWNER_PROVIDER_SHARE_PERCENT: '100',
  OWNER_MAX_DEFINITIONS: HIGH,
  OWNER_MAX_SCHEDULES: HIGH,
  OWNER_MAX_RUNNING_RUNS: HIGH,
  OWNER_MAX_QUEUED_TASKS: HIGH,
};

/**
 * Links the stateful phase must follow: create definition → read, save, run, history, schedule
 * routes, delete; run → task → cancel; create key → revoke. (Skill calls answer 202 with a
 * `task_id` only when long-running or queued, so their links are followed when a generated input
 * happens to be valid, not on every seed.)
 */
const CHAINS = [
  'POST /v1/workflows -> [201] GetV1WorkflowsId -> GET /v1/workflows/{id}',
  'POST /v1/workflows -> [201] PutV1WorkflowsId -> PUT /v1/workflows/{id}',
  'POST /v1/workflows -> [201] PostV1WorkflowsIdRuns -> POST /v1/workflows/{id}/runs',
  'POST /v1/workflows -> [201] GetV1WorkflowsIdRuns -> GET /v1/workflows/{id}/runs',
  'POST /v1/workflows -> [201] PostV1WorkflowsIdScheduleTrigger -> POST /v1/workflows/{id}/schedule/trigger',
  'POST /v1/workflows -> [201] DeleteV1WorkflowsId -> DELETE /v1/workflows/{id}',
  'POST /v1/workflows/{id}/runs -> [202] GetV1TasksTaskId -> GET /v1/tasks/{task_id}',
  'POST /v1/workflows/{id}/runs -> [202] PostV1TasksTaskIdCancel -> POST /v1/tasks/{task_id}/cancel',
  'GET /v1/tasks/{task_id} -> [200] PostV1TasksTaskIdCancel -> POST /v1/tasks/{task_id}/cancel',
  'POST /v1/keys -> [201] DeleteV1KeysKeyId -> DELETE /v1/keys/{key_id}',
];

describe('the API contract (Schemathesis)', () => {
  let stack: RunningStack;
  let token: string;
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'skillflow-contract-'));

  beforeAll(async () => {
    stack = await startStack({ env: CONTRACT_LIMITS });
    // Every scope and `admin` (which `*` never implies), so the operator routes are reached too.
    const res = await fetch(`${stack.url}/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'contract', scopes: ['*', 'admin'], tier: 'pro' }),
    });
    expect(res.status).toBe(201);
    token = ((await res.json()) as { token: string }).token;
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
    rmSync(reportDir, { recursive: true, force: true });
  });

  it('finds no failure in any phase or check, reaching every operation and following every link', async () => {
    // The stateful phase on its own on the fresh stack, then every phase: after the other phases
    // the stateful walk is cut short, so which links it follows shifts with every schema in the
    // document; the links followed by either walk count.
    const runs = [];
    for (const phases of [['stateful'], ['examples', 'coverage', 'fuzzing', 'stateful']] as const) {
      const run = await runSchemathesis({
        baseUrl: stack.url,
        token,
        seed: 20_261_123,
        maxExamples: 30,
        reportDir: path.join(reportDir, phases.join('-')),
        phases,
      });
      process.stdout.write(`Schemathesis (${phases.join(', ')}): ${run.summary}\n`);
      const cases = /^\s*(\d+ generated, .*)$/m.exec(run.output)?.[1] ?? '(no case count)';
      process.stdout.write(`Schemathesis: test cases ${cases}\n`);
      // On failure the whole report is the message: every failing case with its curl line.
      expect(run.code, run.output).toBe(0);
      expect(run.summary, run.output).toMatch(/^=+ .* in [\d.]+s =+$/);
      expect(run.summary, run.output).not.toMatch(/failure|error/);
      runs.push(run);
    }
    const stateful = runs[0]!;

    // Every documented operation was called, and none answered only 429: with the limits lifted,
    // every request reached the operation's own logic.
    const doc = (await (await fetch(`${stack.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`),
    );
    const statuses = statusesByOperation(
      path.join(reportDir, 'examples-coverage-fuzzing-stateful'),
      Object.keys(doc.paths),
    );
    const onlyRateLimited = operations.filter((op) => {
      const counts = statuses[op] ?? {};
      const total = Object.values(counts).reduce((a, b) => a + b, 0);
      return total === 0 || counts[429] === total;
    });
    expect(onlyRateLimited, JSON.stringify(statuses, null, 1)).toEqual([]);
    const limited = Object.values(statuses).reduce((n, counts) => n + (counts[429] ?? 0), 0);
    process.stdout.write(`Schemathesis: ${operations.length} operations, ${limited} answers of 429\n`);

    // The stateful phase walked the declared links (inference is off) along the natural chains.
    const links = /API Links:\s+(\d+) covered \/ (\d+) selected \/ (\d+) total/.exec(stateful.output);
    expect(links, stateful.output).not.toBeNull();
    process.stdout.write(
      `Schemathesis: API links ${links![1]} covered / ${links![2]} selected / ${links![3]} total\n`,
    );
    const followed = new Set([
      ...linksFollowed(path.join(reportDir, 'examples-coverage-fuzzing-stateful')),
      ...linksFollowed(path.join(reportDir, 'stateful')),
    ]);
    expect(
      CHAINS.filter((link) => !followed.has(link)),
      [...followed].join('\n'),
    ).toEqual([]);
  }, 1_200_000);
});
