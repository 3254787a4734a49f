/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * `wait_for_approval` on a real Temporal server with the API and a worker: the run waits, the
 * owner's approvals list shows it, a decision is delivered as an Update (a wrong payload or a
 * second decision changes nothing), a rejection completes the step, a timeout fails it or
 * continues, and another owner never sees or decides it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

describe('wait_for_approval', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await startEngine();
  });
  afterAll(async () => {
    await h?.close();
  });

  const DEFINITION = `title: Register
start_when:
  manual:
    inputs:
      name: { type: string, required: true }
steps:
  - id: ok
    wait_for_approval:
      title: 'Register {{inputs.name}}?'
      payload:
        budget: { type: number, required: true }
        note: { type: string, description: Why }
      timeout: 24h
  - id: go
    if: $nodes.ok.output.decision == 'approved'
    use_app_skill: echo.shout
    input: { requests: [{ text: '{{steps.ok.decision}} {{steps.ok.payload.budget}}' }] }
  - id: no
    if: $nodes.ok.output.decision == 'rejected'
    use_app_skill: echo.shout
    input: { requests: [{ text: 'rejected' }] }
`;

  /** Whether visibility lists the run's approval (it follows the run shortly) or, with `gone`, stops. */
  async function listed(runId: string, gone = false): Promise<boolean> {
    for (let i = 0; i < 100; i++) {
      const list = await h.request('GET', '/v1/approvals');
      expect(list.status).toBe(200);
      const found = list.json.approvals.some((a: any) => a.run_id === runId);
      if (found !== gone) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    return !gone;
  }

  async function startWaiting(name: string): Promise<{ defId: string; runId: string }> {
    const def = await h.request('POST', '/v1/workflows', DEFINITION, 'application/yaml');
    expect(def.status, def.body).toBe(201);
    const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, { inputs: { name } });
    expect(run.status, run.body).toBe(202);
    const runId = run.json.task_id as string;
    await h.waitForTask(runId, (t) => t.steps?.[0]?.approval !== undefined);
    expect(await listed(runId)).toBe(true);
    return { defId: def.json.id, runId };
  }

  it('lists the waiting approval, refuses a wrong payload, takes one decision, then goes on', async () => {
    const { defId, runId } = await startWaiting('cedar');
    const task = await h.request('GET', `/v1/tasks/${runId}`);
    expect(task.json.status).toBe('running');
    expect(task.json.steps[0]).toMatchObject({ id: 'ok', status: 'running' });
    const expiresAt = task.json.steps[0].approval.expires_at as string;
    expect(Date.parse(expiresAt) - Date.parse(task.json.steps[0].started_at)).toBeGreaterThanOrEqual(
      24 * 3600_000 - 1000,
    );
    const list = await h.request('GET', '/v1/approvals');
    expect(list.status).toBe(200);
    expect(list.json.approvals.filter((a: any) => a.run_id === runId)).toEqual([
      {
        run_id: runId,
        step_id: 'ok',
        title: 'Register cedar?',
        payload: {
          budget: { type: 'number', required: true },
          note: { type: 'string', required: false, description: 'Why' },
        },
        expires_at: expiresAt,
        definition: { id: defId, version: 1 },
        link: expect.stringMatching(/^\/#approve\/v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/),
      },
    ]);
    // Another owner neither sees nor decides it.
    const foreign = await h.request('GET', '/v1/approvals', undefined, undefined, h.otherToken);
    expect(foreign.status).toBe(200);
    expect(foreign.json.approvals.filter((a: any) => a.run_id === runId)).toEqual([]);
    const url = `/v1/runs/${runId}/approvals/ok`;
    const foreignDecision = await h.request(
      'POST',
      url,
      { decision: 'approved', payload: { budget: 1 } },
      undefined,
      h.otherToken,
    );
    expect(foreignDecision.json).toEqual({
      error: { code: 'NOT_FOUND', message: 'No task with this id.', details: {} },
    });
    const wrongType = await h.request('POST', url, { decision: 'approved', payload: { budget: 'lots' } });
    expect(wrongType.status).toBe(422);
    expect(wrongType.json).toEqual({
      error: {
        code: 'INVALID_APPROVAL_PAYLOAD',
        message: "The payload does not fit the approval's declared fields; see details.issues.",
        details: { issues: [{ path: 'payload.budget', message: 'must be of type number' }] },
      },
    });
    const undeclared = await h.request('POST', url, {
      decision: 'approved',
      payload: { budget: 1, extra: 2 },
    });
    expect(undeclared.json.error.details).toEqual({
      issues: [{ path: 'payload', message: 'holds a field the approval does not declare' }],
    });
    const missing = await h.request('POST', url, { decision: 'approved', payload: { note: 'x' } });
    expect(missing.json.error.details).toEqual({
      issues: [{ path: 'payload.budget', message: 'is required' }],
    });
    const otherStep = await h.request('POST', `/v1/runs/${runId}/approvals/go`, { decision: 'approved' });
    expect(otherStep.status).toBe(409);
    expect(otherStep.json.error.code).toBe('APPROVAL_NOT_WAITING');
    const badDecision = await h.request('POST', url, { decision: 'maybe' });
    expect(badDecision.status).toBe(400);
    expect(badDecision.json.error.code).toBe('INVALID_PARAMETER');
    // Refused decisions left no trace: the run still waits.
    expect((await h.request('GET', `/v1/tasks/${runId}`)).json.steps[0].status).toBe('running');

    const approved = await h.request('POST', url, { decision: 'approved', payload: { budget: 12 } });
    expect(approved.status, approved.body).toBe(200);
    expect(approved.json).toEqual({
      run_id: runId,
      step_id: 'ok',
      decision: 'approved',
      decided_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const again = await h.request('POST', url, { decision: 'rejected' });
    expect(again.status).toBe(409);
    expect(again.json).toEqual({
      error: {
        code: 'APPROVAL_NOT_WAITING',
        message: 'The run is not waiting for this approval (decided, timed out, ended, or no such step).',
        details: {},
      },
    });
    const done = await h.waitForTask(runId, (t) => ['completed', 'failed'].includes(t.status));
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect(done.result.outputs.ok).toEqual({
      decision: 'approved',
      payload: { budget: 12 },
      decided_by: expect.stringMatching(/^k[0-9a-f]{16}$/),
      decided_at: approved.json.decided_at,
    });
    expect(done.result.outputs.go.results).toEqual(['APPROVED 12']);
    expect(done.steps.map((s: any) => [s.id, s.status])).toEqual([
      ['ok', 'completed'],
      ['go', 'completed'],
      ['no', 'skipped'],
    ]);
    const after = await h.request('GET', '/v1/approvals');
    expect(after.json.approvals.filter((a: any) => a.run_id === runId)).toEqual([]);
    const ended = await h.request('POST', url, { decision: 'approved', payload: { budget: 1 } });
    expect(ended.json.error.code).toBe('APPROVAL_NOT_WAITING');
  });

  it('a link from the list decides once, without a key; an altered link is refused', async () => {
    const { runId } = await startWaiting('fir');
    const listedOne = (await h.request('GET', '/v1/approvals')).json.approvals.find(
      (a: any) => a.run_id === runId,
    );
    const token = (listedOne.link as string).replace(/^\/#approve\//, '');
    expect(listedOne.link).toBe(`/#approve/${token}`);
    const noKey = (url: string, body: unknown) => h.request('POST', url, body, undefined, '');
    const viewed = await noKey('/v1/approval-links/view', { token });
    expect(viewed.status, viewed.body).toBe(200);
    expect(viewed.json).toEqual({
      title: 'Register fir?',
      payload: listedOne.payload,
      expires_at: listedOne.expires_at,
    });
    const altered = `${token.slice(0, -3)}AAA`;
    const refused = await noKey('/v1/approval-links/decide', { token: altered, decision: 'approved' });
    expect([refused.status, refused.json]).toEqual([
      403,
      {
        error: {
          code: 'APPROVAL_LINK_INVALID',
          message: 'The approval link is not valid: it is malformed, altered, or expired.',
          details: {},
        },
      },
    ]);
    const decided = await noKey('/v1/approval-links/decide', {
      token,
      decision: 'approved',
      payload: { budget: 9 },
    });
    expect([decided.status, decided.json]).toEqual([
      200,
      {
        run_id: runId,
        step_id: 'ok',
        decision: 'approved',
        decided_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    const notWaiting = {
      error: {
        code: 'APPROVAL_NOT_WAITING',
        message: 'The run is not waiting for this approval (decided, timed out, ended, or no such step).',
        details: {},
      },
    };
    // Used again, even with the same decision: refused.
    for (const body of [{ decision: 'approved', payload: { budget: 9 } }, { decision: 'rejected' }]) {
      const again = await noKey('/v1/approval-links/decide', { token, ...body });
      expect([again.status, again.json]).toEqual([409, notWaiting]);
    }
    const done = await h.waitForTask(runId, (t) => ['completed', 'failed'].includes(t.status));
    expect(done.result.outputs.ok).toMatchObject({
      decision: 'approved',
      decided_by: 'link',
      payload: { budget: 9 },
    });
    const after = await noKey('/v1/approval-links/view', { token });
    expect([after.status, after.json]).toEqual([409, notWaiting]);
  });

  it('cancelling a waiting run ends the wait: the approval leaves the list, a decision is 409', async () => {
    const { runId } = await startWaiting('ash');
    expect((await h.request('POST', `/v1/tasks/${runId}/cancel`)).status).toBe(202);
    const done = await h.waitForTask(runId, (t) => t.status === 'cancelled');
    expect(done.steps[0].status).toBe('cancelled');
    expect(await listed(runId, true)).toBe(false);
    const late = await h.request('POST', `/v1/runs/${runId}/approvals/ok`, { decision: 'rejected' });
    expect([late.status, late.json.error.code]).toEqual([409, 'APPROVAL_NOT_WAITING']);
    // The run's last search attributes: it no longer waits.
    const desc = await h.env.client.workflow.getHandle(runId).describe();
    expect(desc.searchAttributes.Waiting ?? []).toEqual([]);
  });

  it('a rejection completes the step; later steps branch on it', async () => {
    const { runId } = await startWaiting('oak');
    const rejected = await h.request('POST', `/v1/runs/${runId}/approvals/ok`, {
      decision: 'rejected',
      payload: { note: 'too dear' },
    });
    expect(rejected.status, rejected.body).toBe(200);
    const done = await h.waitForTask(runId, (t) => ['completed', 'failed'].includes(t.status));
    expect(done.status).toBe('completed');
    expect(done.result.outputs.ok).toMatchObject({ decision: 'rejected', payload: { note: 'too dear' } });
    expect(done.steps.map((s: any) => [s.id, s.status])).toEqual([
      ['ok', 'completed'],
      ['go', 'skipped'],
      ['no', 'completed'],
    ]);
  });

  it('answers 503 when no worker confirms the decision; sending it again gives its outcome', async () => {
    const { runId } = await startWaiting('elm');
    const url = `/v1/runs/${runId}/approvals/ok`;
    const decision = { decision: 'approved', payload: { budget: 1 } };
    await h.worker!.shutdown();
    h.worker = undefined;
    try {
      const t0 = Date.now();
      const stalled = await h.request('POST', url, decision);
      expect(Date.now() - t0).toBeLessThan(20_000);
      expect(stalled.status).toBe(503);
      expect(stalled.json).toEqual({
        error: {
          code: 'DEADLINE_EXCEEDED',
          message: 'The operation did not finish within its deadline.',
          details: {},
        },
      });
    } finally {
      await h.startWorker();
    }
    // The same decision again joins the first (one Update id): its outcome, once.
    const again = await h.request('POST', url, decision);
    expect(again.status, again.body).toBe(200);
    const other = await h.request('POST', url, { decision: 'approved', payload: { budget: 2 } });
    expect(other.json.error.code).toBe('APPROVAL_NOT_WAITING');
    const done = await h.waitForTask(runId, (t) => ['completed', 'failed'].includes(t.status));
    expect(done.result.outputs.ok).toMatchObject({
      payload: { budget: 1 },
      decided_at: again.json.decided_at,
    });
  }, 60_000);

  it('times out: on_timeout continue gives timed_out, on_timeout fail fails the step', async () => {
    const def = await h.request(
      'POST',
      '/v1/workflows',
      `title: Timeouts
start_when: { manual: {} }
steps:
  - id: both
    parallel:
      steps:
        - id: soft
          wait_for_approval: { title: Soft, timeout: 1m, on_timeout: continue }
        - id: hard
          wait_for_approval: { title: Hard, timeout: 1m }
          continue_on_error: true
`,
      'application/yaml',
    );
    expect(def.status, def.body).toBe(201);
    const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, { inputs: {} });
    let links: string[] = [];
    for (let i = 0; i < 50 && links.length < 2; i += 1) {
      const listed = await h.request('GET', '/v1/approvals');
      links = listed.json.approvals
        .filter((a: any) => a.run_id === run.json.task_id)
        .map((a: any) => a.link.replace(/^\/#approve\//, ''));
      if (links.length < 2) await new Promise((r) => setTimeout(r, 200));
    }
    expect(links).toHaveLength(2);
    const done = await h.waitForTask(
      run.json.task_id,
      (t) => ['completed', 'failed'].includes(t.status),
      90_000,
    );
    // Once the wait is over, its link has expired.
    const expired = await h.request(
      'POST',
      '/v1/approval-links/decide',
      { token: links[0], decision: 'approved' },
      undefined,
      '',
    );
    expect([expired.status, expired.json]).toEqual([
      403,
      {
        error: {
          code: 'APPROVAL_LINK_INVALID',
          message: 'The approval link is not valid: it is malformed, altered, or expired.',
          details: {},
        },
      },
    ]);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect(done.result.outputs.soft).toEqual({
      decision: 'timed_out',
      payload: {},
      decided_by: null,
      decided_at: null,
    });
    expect(done.steps.find((s: any) => s.id === 'hard')).toMatchObject({
      status: 'failed',
      error: { code: 'APPROVAL_TIMED_OUT', message: 'No decision arrived before the approval timed out.' },
    });
  }, 120_000);
});
