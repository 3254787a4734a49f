/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * GET /v1/runs on a real Temporal dev server and worker: runs of two definitions and two owners,
 * each filter, the cursor walked with limit 2 (every run exactly once), another owner's runs
 * never listed, and whole 400 envelopes for bad parameters. Visibility trails a run's start and
 * end, so lists are polled until they show what the runs did.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shoutWordDefinition } from '../helpers/definitions.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

/** A shout of `word`, then a fail step `stop` when the word is `boom`. */
const SHOUT_OR_STOP = `${shoutWordDefinition('Shout or stop')}  - id: stop
    if: inputs.word == 'boom'
    fail: { code: STOPPED_HERE, message: stopped }
`;

/** A fail step `gate` when `boom` is set, else a long wait. */
const GATE_OR_WAIT = `title: Gate or wait
start_when:
  manual:
    inputs:
      boom: { type: boolean, default: false }
steps:
  - id: gate
    if: inputs.boom
    fail: { code: GATED, message: gated }
  - id: pause
    wait: { duration: 1h }
`;

const invalid = (path: string, message: string) => ({
  error: {
    code: 'INVALID_PARAMETER',
    message: `Invalid querystring at ${path}: ${message}`,
    details: { issues: [{ path, message, location: 'querystring' }] },
  },
});

describe('searching runs across definitions', () => {
  let h: EngineHarness;
  let defA: string;
  let defB: string;
  /** Owner A's runs by name, owner B's one run. */
  const run: Record<string, string> = {};
  let middle: string;

  const ids = (res: { json: any }) => (res.json.runs as any[]).map((r) => r.task_id).sort();
  const sorted = (...names: string[]) => names.map((n) => run[n]!).sort();
  /** The list for `query`, once `until` holds for it (visibility trails starts and ends). */
  async function listed(query: string, until: (json: any) => boolean, token = h.token): Promise<any> {
    const deadline = Date.now() + 30_000;
    let last: any;
    while (Date.now() < deadline) {
      last = await h.request('GET', `/v1/runs${query}`, undefined, undefined, token);
      if (last.status === 200 && until(last.json)) return last;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`the list never matched: ${JSON.stringify(last?.json)}`);
  }
  /** Starts a run that fails (at `stop` or `gate`) when `boom`. */
  async function start(defId: string, boom: boolean, token = h.token): Promise<string> {
    const inputs = defId === defB ? { boom } : { word: boom ? 'boom' : 'hi' };
    const res = await h.request('POST', `/v1/workflows/${defId}/runs`, { inputs }, undefined, token);
    expect(res.status, JSON.stringify(res.json)).toBe(202);
    return res.json.task_id;
  }

  beforeAll(async () => {
    h = await startEngine({ worker: true });
    const create = async (yaml: string, token = h.token) =>
      (await h.request('POST', '/v1/workflows', yaml, 'application/yaml', token)).json.id as string;
    defA = await create(SHOUT_OR_STOP);
    defB = await create(GATE_OR_WAIT);
    const defOther = await create(SHOUT_OR_STOP, h.otherToken);
    run.done1 = await start(defA, false);
    run.stopped = await start(defA, true);
    run.done2 = await start(defA, false);
    for (const name of ['done1', 'stopped', 'done2'])
      await h.waitForTask(run[name]!, (t) => t.status === 'completed' || t.status === 'failed');
    await new Promise((r) => setTimeout(r, 50));
    middle = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 50));
    run.gated = await start(defB, true);
    run.waiting = await start(defB, false);
    run.cancelled = await start(defB, false);
    run.other = await start(defOther, true, h.otherToken);
    await h.waitForTask(run.gated, (t) => t.status === 'failed');
    await h.waitForTask(run.waiting, (t) => t.status === 'running');
    await h.waitForTask(run.cancelled, (t) => t.status === 'running');
    expect((await h.request('POST', `/v1/tasks/${run.cancelled}/cancel`)).status).toBe(202);
    await h.waitForTask(run.cancelled, (t) => t.status === 'cancelled');
    // Every run listed with its final state before the filters are asserted.
    await listed(
      '?limit=100',
      (j) => j.runs.length === 6 && j.runs.filter((r: any) => r.finished_at).length === 5,
    );
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it("lists the owner's runs of every definition, newest first, each with its definition and failed step", async () => {
    const all = await listed('?limit=100', (j) => j.runs.length === 6);
    expect(ids(all)).toEqual(sorted('done1', 'stopped', 'done2', 'gated', 'waiting', 'cancelled'));
    expect(all.json.next_page_token).toBeNull();
    // The open run first, then the closed ones by when they closed.
    expect(all.json.runs[0].task_id).toBe(run.waiting);
    const stopped = all.json.runs.find((r: any) => r.task_id === run.stopped);
    expect(stopped).toEqual({
      task_id: run.stopped,
      status: 'failed',
      trigger: 'manual',
      definition_version: 1,
      started_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      finished_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      workflow_id: defA,
      failed_step: 'stop',
    });
    const waiting = all.json.runs.find((r: any) => r.task_id === run.waiting);
    expect([waiting.status, waiting.workflow_id, waiting.failed_step, waiting.finished_at]).toEqual([
      'running',
      defB,
      null,
      null,
    ]);
    const statuses = Object.fromEntries(all.json.runs.map((r: any) => [r.task_id, r.status]));
    expect(statuses).toEqual({
      [run.done1!]: 'completed',
      [run.stopped!]: 'failed',
      [run.done2!]: 'completed',
      [run.gated!]: 'failed',
      [run.waiting!]: 'running',
      [run.cancelled!]: 'cancelled',
    });
  });

  it('filters by definition, status, failed step, trigger and start time', async () => {
    const exactly = async (query: string, ...names: string[]) => {
      const res = await h.request('GET', `/v1/runs${query}`);
      expect([query, res.status, ids(res)]).toEqual([query, 200, sorted(...names)]);
    };
    await exactly(`?workflow_id=${defA}`, 'done1', 'stopped', 'done2');
    await exactly(`?workflow_id=${defB}`, 'gated', 'waiting', 'cancelled');
    await exactly('?status=completed', 'done1', 'done2');
    await exactly('?status=failed', 'stopped', 'gated');
    await exactly('?status=running', 'waiting');
    await exactly('?status=cancelled', 'cancelled');
    await exactly('?status=timed_out');
    await exactly('?failed_step=stop', 'stopped');
    await exactly('?failed_step=gate', 'gated');
    await exactly('?failed_step=pause');
    await exactly(`?started_after=${middle}`, 'gated', 'waiting', 'cancelled');
    await exactly(`?started_before=${middle}`, 'done1', 'stopped', 'done2');
    await exactly(`?workflow_id=${defB}&status=failed&failed_step=gate&started_after=${middle}`, 'gated');
    await exactly(`?workflow_id=${defA}&started_after=${middle}`);
    await exactly('?workflow_id=wf_nope');
    await exactly('?trigger=manual', 'done1', 'stopped', 'done2', 'gated', 'waiting', 'cancelled');
    await exactly(`?trigger=manual&workflow_id=${defB}&status=failed`, 'gated');
    await exactly('?trigger=schedule');
    await exactly('?trigger=webhook');
  });

  it('walks every run exactly once with limit 2, and refuses a token of other filters', async () => {
    const seen: string[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const res: any = await h.request('GET', `/v1/runs?limit=2${token ? `&page_token=${token}` : ''}`);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(res.json.runs.length).toBeLessThanOrEqual(2);
      seen.push(...res.json.runs.map((r: any) => r.task_id));
      token = res.json.next_page_token;
      if (pages === 0) {
        expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
        const bad = invalid(
          'page_token',
          'must be a page token from an earlier answer with the same filters',
        );
        const other = await h.request('GET', `/v1/runs?limit=2&status=failed&page_token=${token}`);
        expect([other.status, other.json]).toEqual([400, bad]);
        const altered = await h.request('GET', `/v1/runs?limit=2&page_token=A${token}`);
        expect([altered.status, altered.json]).toEqual([400, bad]);
        const stranger = await h.request(
          'GET',
          `/v1/runs?limit=2&page_token=${token}`,
          undefined,
          undefined,
          h.otherToken,
        );
        expect([stranger.status, stranger.json]).toEqual([400, bad]);
      }
      pages += 1;
    } while (token && pages < 10);
    expect(seen.length).toBe(6);
    expect([...seen].sort()).toEqual(sorted('done1', 'stopped', 'done2', 'gated', 'waiting', 'cancelled'));
    expect(pages).toBeGreaterThanOrEqual(3);
  });

  it("never lists another owner's runs", async () => {
    const other = await listed('', (j) => j.runs.length === 1, h.otherToken);
    expect(ids(other)).toEqual([run.other]);
    expect(other.json.runs[0]).toMatchObject({ status: 'failed', failed_step: 'stop' });
    const mine = await h.request('GET', '/v1/runs?failed_step=stop');
    expect(ids(mine)).toEqual(sorted('stopped'));
    const theirs = await h.request('GET', `/v1/runs?workflow_id=${defA}`, undefined, undefined, h.otherToken);
    expect([theirs.status, theirs.json]).toEqual([200, { runs: [], next_page_token: null }]);
  });

  it('answers a bad parameter 400 with the whole envelope naming it', async () => {
    const cases: Array<[string, unknown]> = [
      [
        'status=queued',
        invalid(
          'status',
          'Invalid option: expected one of "running"|"completed"|"failed"|"cancelled"|"timed_out"',
        ),
      ],
      [
        'trigger=cron',
        invalid(
          'trigger',
          'Invalid option: expected one of "manual"|"schedule"|"event"|"webhook"|"workflow"|"rerun"',
        ),
      ],
      ['workflow_id=task_1', invalid('workflow_id', 'must be a workflow id (wf_...)')],
      ['failed_step=Stop', invalid('failed_step', 'must be a step id (lower_snake, at most 64 characters)')],
      [
        'started_after=yesterday',
        invalid('started_after', 'must be an RFC 3339 date-time such as 2026-01-31T12:00:00Z'),
      ],
      [
        'started_before=2026-01-31',
        invalid('started_before', 'must be an RFC 3339 date-time such as 2026-01-31T12:00:00Z'),
      ],
      ['limit=0', invalid('limit', 'Too small: expected number to be >=1')],
      ['limit=101', invalid('limit', 'Too big: expected number to be <=100')],
      [
        'page_token=nope',
        invalid('page_token', 'must be a page token from an earlier answer with the same filters'),
      ],
      ['owner_id=owner_b', invalid('owner_id', 'Unknown field.')],
    ];
    for (const [query, body] of cases) {
      const res = await h.request('GET', `/v1/runs?${query}`);
      expect([query, res.status, res.json]).toEqual([query, 400, body]);
    }
  });
});
