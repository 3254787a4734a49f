/**
 * The CLI and the SDK end to end against the real stack `npm start` runs (Temporal dev server,
 * worker, API and simulators, on free ports with a temporary DATA_DIR): apply and run the
 * example definition, call a skill through REST, the SDK and `apps ... --json` and compare the
 * bodies, validate a broken file, report API errors, and leave no process behind.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config.js';
import {
  createClient,
  isCompleted,
  signWebhook,
  SkillflowApiError,
  WEBHOOK_SIGNATURE_HEADER,
  type SkillflowClient,
} from '../../sdk/index.js';
import { processesMentioning, runCli, startStack, type RunningStack } from '../helpers/stack.js';

// `npm start` loads only the real apps (activities/apps), so the skill parts need hosting.
const EXAMPLE = path.join(PROJECT_ROOT, 'definitions/examples/domain-ideas.yaml');
const INPUT = { requests: [{ id: 'a', query: 'cedar', tlds: ['com'] }, { query: 'lanternfish.net' }] };
const BROKEN = [
  'title: Broken',
  'start_when:',
  '  manual: {}',
  'steps:',
  '  - id: search',
  '    use_app_skill: hosting.search_domain',
  '    input:',
  '      requests: [{ query: cedar }]',
  '  - id: again',
  '    use_app_skill: hosting.search_domains',
  '    input:',
  '      requests:',
  '        - query: cedar',
  '          max_results: 50',
  '',
].join('\n');

/** Ids and timestamps differ per call; everything else must be identical. */
function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === 'task_id' || k === 'call_id' || k.endsWith('_at') ? `<${k}>` : normalise(v),
    ]),
  );
}

describe('CLI and SDK against npm start', () => {
  let stack: RunningStack;
  let client: SkillflowClient;
  let tmp: string;
  // The CLI finds the token in DATA_DIR/dev-api-key, as it does after a plain `npm start`.
  // Chat messages are sealed to the owner's chat keys: `chats init` makes this device's key file.
  const keyFile = () => path.join(tmp, 'chat-key.json');
  const cli = (...args: string[]) =>
    runCli(args, { SKILLFLOW_URL: stack.url, DATA_DIR: stack.dataDir, SKILLFLOW_CHAT_KEY_FILE: keyFile() });
  const cliWith = (env: Record<string, string>, ...args: string[]) =>
    runCli(args, {
      SKILLFLOW_URL: stack.url,
      DATA_DIR: stack.dataDir,
      SKILLFLOW_CHAT_KEY_FILE: keyFile(),
      ...env,
    });

  beforeAll(async () => {
    stack = await startStack();
    client = createClient({ baseUrl: stack.url, token: stack.token });
    tmp = mkdtempSync(path.join(os.tmpdir(), 'skillflow-e2e-files-'));
    // Before any run delivers: a run of an owner without a chat key fails its chat step.
    const init = await cli('chats', 'init');
    expect([init.code, init.stderr]).toEqual([0, '']);
  }, 180_000);

  afterAll(async () => {
    rmSync(tmp, { recursive: true, force: true });
    if (!stack) return;
    const dataDir = stack.dataDir;
    expect(await stack.stop()).toBe(0);
    expect(processesMentioning(dataDir)).toEqual([]);
  }, 60_000);

  it('SDK: creates the example definition, runs it and waits for the task', async () => {
    const def = await client.workflows.create(readFileSync(EXAMPLE, 'utf8'));
    expect(def).toMatchObject({ title: 'Domain ideas', version: 1, trigger_type: 'manual' });
    const started = await client.workflows.run(def.id);
    expect(started.links.task).toBe(`/v1/tasks/${started.task_id}`);
    const seen: string[] = [];
    const task = await client.tasks.wait(started.task_id, {
      intervalMs: 200,
      timeoutMs: 60_000,
      onProgress: (t) => seen.push(t.status),
    });
    expect(task).toMatchObject({
      task_id: started.task_id,
      kind: 'workflow_run',
      status: 'completed',
      error: null,
    });
    expect(task.steps.map((s) => [s.id, s.status])).toEqual([
      ['search', 'completed'],
      ['notify', 'completed'],
    ]);
    expect(task.steps[0]?.output_summary?.result_count).toBeGreaterThan(0);
    expect(seen.at(-1)).toBe('completed');
    expect((await client.workflows.runs(def.id)).map((r) => r.task_id)).toContain(started.task_id);
  });

  it('runs list: the CLI and the SDK page through the runs of a definition with the same bodies', async () => {
    const def = await client.workflows.create(
      readFileSync(EXAMPLE, 'utf8').replace('title: Domain ideas', 'title: Domain ideas (runs list)'),
    );
    const started: string[] = [];
    for (let i = 0; i < 3; i++) started.push((await client.workflows.run(def.id)).task_id);
    for (const id of started) await client.tasks.wait(id, { intervalMs: 200, timeoutMs: 60_000 });
    let listed: string[] = [];
    for (let i = 0; i < 100 && listed.length !== 3; i++) {
      listed = (await client.runs.list({ workflowId: def.id, status: 'completed' })).runs.map(
        (r) => r.task_id,
      );
      if (listed.length !== 3) await new Promise((r) => setTimeout(r, 200));
    }
    expect([...listed].sort()).toEqual([...started].sort());
    const walked: string[] = [];
    for await (const r of client.runs.iterate({ workflowId: def.id, pageSize: 2 })) walked.push(r.task_id);
    expect(walked).toEqual(listed);
    const first = await cli('runs', 'list', '--workflow', def.id, '--limit', '2', '--json');
    const page = JSON.parse(first.stdout) as { runs: { task_id: string }[]; next_page_token: string };
    expect(page).toEqual(await client.runs.list({ workflowId: def.id, limit: 2 }));
    expect(page.runs.map((r) => r.task_id)).toEqual(listed.slice(0, 2));
    const human = await cli(
      'runs',
      'list',
      '--workflow',
      def.id,
      '--limit',
      '2',
      '--page-token',
      page.next_page_token,
    );
    expect(human).toMatchObject({ code: 0, stderr: '' });
    expect(human.stdout).toMatch(new RegExp(`^${listed[2]} {2}completed {2}${def.id} {2}\\d{4}-.*Z\n$`));
    const bad = await cli('runs', 'list', '--status', 'queued');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('INVALID_PARAMETER');
  });

  it('CLI: apply creates, re-applies unchanged, updates by title; run --wait; tasks get --json', async () => {
    const file = path.join(tmp, 'ideas.yaml');
    const source = readFileSync(EXAMPLE, 'utf8').replace('title: Domain ideas', 'title: Domain ideas (CLI)');
    writeFileSync(file, source);
    const created = await cli('workflows', 'apply', file);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const id = /^created (wf_[a-z0-9_]+) \(version 1, manual\)$/m.exec(created.stdout)?.[1];
    expect(id).toBeDefined();
    expect((await cli('workflows', 'apply', file)).stdout).toBe(`unchanged ${id} (version 1, manual)\n`);
    // -q: the id alone, for scripts; not together with --json.
    expect(await cli('workflows', 'apply', file, '-q')).toEqual({ code: 0, stdout: `${id}\n`, stderr: '' });
    expect(await cli('workflows', 'apply', file, '-q', '--json')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: USAGE: --json and --quiet exclude each other.\n',
    });
    writeFileSync(file, source.replace('query: cedar', 'query: juniper'));
    expect((await cli('workflows', 'apply', file)).stdout).toBe(`updated ${id} (version 2, manual)\n`);

    const run = await cli('workflows', 'run', id!, '--wait', '--json');
    expect(run.code).toBe(0);
    const task = JSON.parse(run.stdout) as { task_id: string; status: string; definition: unknown };
    expect(task).toMatchObject({ status: 'completed', definition: { id, version: 2 } });
    // The CLI prints exactly what the SDK (and the REST route) returns.
    const again = await cli('tasks', 'get', task.task_id, '--json');
    expect(JSON.parse(again.stdout)).toEqual(await client.tasks.get(task.task_id));
    const human = await cli('tasks', 'get', task.task_id);
    expect(human.stdout).toMatch(/^ {2}✔ search +completed +\d+\.\ds +result_count=\d+$/m);
    // The run's message is in the definition's chat: listed, and read in order.
    const chatId = `workflow:${id}`;
    const chats = await cli('chats', 'list');
    expect([chats.code, chats.stderr]).toEqual([0, '']);
    expect(chats.stdout).toMatch(
      new RegExp(`^${chatId} +1 message {2}last \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`, 'm'),
    );
    const read = await cli('chats', 'read', chatId);
    expect([read.code, read.stderr]).toEqual([0, '']);
    expect(read.stdout).toMatch(
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC {2}Domains {2}\\(${task.task_id} › notify\\)\\n {2}\\d+ domains found\\n$`,
      ),
    );
    const readJson = await cli('chats', 'read', chatId, '--json');
    const { private_key: privateKey } = JSON.parse(readFileSync(keyFile(), 'utf8')) as {
      private_key: string;
    };
    const opened = await client.chats.messages(chatId, { privateKey });
    expect(opened).toMatchObject([{ readable: true, title: 'Domains', step_id: 'notify' }]);
    expect(JSON.parse(readJson.stdout)).toEqual({ chat_id: chatId, messages: opened });
    // The API answers only the sealed copies.
    const sealed = JSON.stringify(await client.chats.messages(chatId));
    expect(sealed).not.toContain('domains found');
    expect(sealed).not.toContain(privateKey);
    expect(await cli('chats', 'read', 'chat_never_used')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: NOT_FOUND (HTTP 404): No chat with this id.\n',
    });
    expect((await cli('chats', 'list', '--limit', '0')).stderr).toBe(
      'error: USAGE: --limit takes a whole number from 1 to 100.\n',
    );

    // A finished task has nothing to cancel: exit 1 and say so.
    expect(await cli('tasks', 'cancel', task.task_id)).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: ALREADY_FINISHED: ${task.task_id} had already finished (completed); nothing to cancel.\n`,
    });

    const list = await cli('workflows', 'list', '--json');
    expect((JSON.parse(list.stdout) as { workflows: { id: string }[] }).workflows.map((w) => w.id)).toContain(
      id,
    );
    // Two definitions are now titled "Domain ideas" (the preloaded file and the SDK's copy).
    const ambiguous = await cli('workflows', 'apply', EXAMPLE);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toMatch(
      /^error: AMBIGUOUS_TITLE: 2 definitions are titled "Domain ideas" \(wf_/,
    );
  });

  it('a skill call returns the same grouped body through REST, the SDK and `apps --json`', async () => {
    const res = await fetch(`${stack.url}/v1/apps/hosting/skills/search_domains`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(INPUT),
    });
    expect(res.status).toBe(200);
    const rest = (await res.json()) as Record<string, unknown>;
    const sdk = await client.apps.hosting.searchDomains(INPUT);
    const viaCli = await cli('apps', 'hosting', 'search_domains', '--input', JSON.stringify(INPUT), '--json');
    expect(viaCli).toMatchObject({ code: 0, stderr: '' });
    const cliBody = JSON.parse(viaCli.stdout) as Record<string, unknown>;

    expect(Object.keys(rest).sort()).toEqual(['call_id', 'previews', 'results']);
    expect(normalise(sdk)).toEqual(normalise(rest));
    expect(normalise(cliBody)).toEqual(normalise(rest));
    if (!isCompleted(sdk)) throw new Error('expected a completed call');
    expect(sdk.results.map((g) => g.id)).toEqual(['a', null]);
    expect(sdk.results[0]?.results.length).toBeGreaterThan(0);
    expect(sdk.results[0]?.results.every((r) => r.domain.endsWith('.com'))).toBe(true);
    // Hyphens and snake_case resolve to the same skill.
    const hyphen = await cli('apps', 'hosting', 'search-domains', '--input', JSON.stringify(INPUT), '--json');
    expect(normalise(JSON.parse(hyphen.stdout))).toEqual(normalise(rest));
  });

  it('a person sees a skill answer as a table with its warnings: a quick call, and a long-running call with --wait', async () => {
    const brief = { requests: [{ query: 'a small bakery named cedar', tlds: ['com'], max_results: 3 }] };
    const quick = await cli('apps', 'hosting', 'search_domains', '--input', JSON.stringify(brief));
    expect([quick.code, quick.stderr]).toEqual([0, '']);
    const lines = quick.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^domain +availability( +price)?$/);
    expect(lines.length).toBeGreaterThan(3);
    for (const row of lines.slice(1, -2)) expect(row).toMatch(/^\S+\.com +(available|registered|unknown)\b/);
    expect(lines.slice(-2)[0]).toBe(
      'warning: QUERY_REDUCED: The brief was reduced to the keyword "bakerycedar" before searching.',
    );
    expect(lines.at(-1)).toMatch(/^call \S+ \(full output: --json\)$/);

    const designs = { requests: [{ vinMin: 10, vinMax: 24, vout: [3.3], iout: [2], max_results: 2 }] };
    const waited = await cli(
      'apps',
      'electronics',
      'search_power_designs',
      '--input',
      JSON.stringify(designs),
      '--wait',
    );
    expect([waited.code, waited.stderr]).toEqual([0, '']);
    const out = waited.stdout.trimEnd().split('\n');
    const header = out.findIndex((l) => l.startsWith('id '));
    expect(out[0]).toMatch(/^task_\S+ +completed /);
    expect(out[header]).toMatch(/^id +rank +part number +topology +efficiency +source url$/);
    expect(out.slice(header + 1)).toHaveLength(2);
    for (const row of out.slice(header + 1))
      expect(row).toMatch(/^\S+ +[12] +\S+ +\S+ +0\.\d+ +https?:\/\/\S+$/);
  });

  it('validate: file:line:col: CODE lines and exit 1 for a broken file, "ok" and exit 0 otherwise', async () => {
    const broken = path.join(tmp, 'broken.yaml');
    writeFileSync(broken, BROKEN);
    const bad = await cli('workflows', 'validate', broken);
    expect(bad.code).toBe(1);
    const lines = bad.stdout.trimEnd().split('\n');
    expect(lines.every((l) => /^.+:\d+:\d+: [A-Z_]+ /.test(l))).toBe(true);
    expect(lines[0]).toBe(
      `${broken}:6:20: UNKNOWN_SKILL Unknown skill. Did you mean hosting.search_domains? Known skills: design.search_icons, electronics.get_power_design, electronics.search_power_designs, encyclopedia.get_summary, encyclopedia.search_articles, hosting.search_domains.`,
    );
    expect(lines[1]).toBe(`${broken}:14:24: INVALID_SKILL_INPUT Too big: expected number to be <=20`);
    expect(bad.stderr).toBe(''); // the live catalog was used: no offline note
    // The server's own compile agrees on codes and positions.
    const server = await cli('workflows', 'validate', broken, '--server');
    expect(server.stdout.split('\n').map((l) => l.split(' ')[0])).toEqual(
      bad.stdout.split('\n').map((l) => l.split(' ')[0]),
    );

    expect(await cli('workflows', 'validate', EXAMPLE)).toEqual({ code: 0, stdout: 'ok\n', stderr: '' });
    const offline = await runCli(['workflows', 'validate', broken], {
      SKILLFLOW_URL: 'http://127.0.0.1:1',
      SKILLFLOW_API_KEY: 'x',
    });
    expect(offline.code).toBe(1);
    expect(offline.stderr).toMatch(/^note: validated offline .*not reachable/);
    expect(offline.stdout.split('\n')[0]).toBe(lines[0]);
  });

  it('approvals: the CLI lists and approves (a wrong payload names its path), the SDK rejects', async () => {
    const def = await client.workflows.create(`title: Approvals (clients)
start_when: { manual: {} }
steps:
  - id: both
    parallel:
      steps:
        - id: buy
          wait_for_approval:
            title: Buy cedar.com?
            payload: { budget: { type: number, required: true } }
            timeout: 1h
        - id: also
          wait_for_approval: { title: Also cedar.net?, timeout: 1h }
        - id: via
          wait_for_approval:
            title: Renew cedar.org?
            payload: { years: { type: integer, required: true, description: How long } }
            timeout: 1h
`);
    const { task_id: runId } = await client.workflows.run(def.id);
    let listed: Array<{ run_id: string; step_id: string }> = [];
    for (let i = 0; i < 100 && listed.length < 3; i++) {
      const all = JSON.parse((await cli('runs', 'approvals', '--json')).stdout) as typeof listed;
      listed = all.filter((a) => a.run_id === runId);
      if (listed.length < 3) await new Promise((r) => setTimeout(r, 200));
    }
    expect(listed.map((a) => a.step_id).sort()).toEqual(['also', 'buy', 'via']);
    expect(listed).toEqual((await client.approvals.list()).filter((a) => a.run_id === runId));
    const human = await cli('runs', 'approvals');
    expect(human.stdout).toContain(`${runId} buy  Buy cedar.com?\n  expires `);
    expect(human.stdout).toContain('; payload { budget*: number }');
    const wrong = await cli('runs', 'approve', runId, 'buy', '--payload', '{"budget":"lots"}');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^error: INVALID_APPROVAL_PAYLOAD \(HTTP 422\): /);
    expect(wrong.stderr).toContain('  payload.budget: must be of type number');
    const ok = await cli('runs', 'approve', runId, 'buy', '--payload', '{"budget":5}');
    expect(ok).toMatchObject({ code: 0, stderr: '' });
    expect(ok.stdout).toMatch(new RegExp(`^approved: ${runId} buy at \\d{4}-`));
    const rejected = await client.approvals.reject(runId, 'also');
    expect(rejected).toMatchObject({ run_id: runId, step_id: 'also', decision: 'rejected' });
    const again = await client.approvals.approve(runId, 'also').catch((x: unknown) => x);
    expect(again).toMatchObject({ status: 409, code: 'APPROVAL_NOT_WAITING' });
    // The link: the CLI shows what it asks and decides through it with no key; the SDK's second use is 409.
    const link = (listed as Array<{ step_id: string; link?: string }>).find(
      (a) => a.step_id === 'via',
    )!.link!;
    const keyless = { SKILLFLOW_API_KEY: '', DATA_DIR: '/nonexistent' };
    const shown = await cliWith(keyless, 'runs', 'link', `http://127.0.0.1:1${link}`);
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(shown.stdout).toMatch(
      /^Renew cedar\.org\?\n {2}expires \d{4}-.*\n {2}years\*: integer {2}How long\n$/,
    );
    const viaLink = await cliWith(keyless, 'runs', 'link', link, '--approve', '--payload', '{"years":2}');
    expect(viaLink).toMatchObject({ code: 0, stderr: '' });
    expect(viaLink.stdout).toMatch(new RegExp(`^approved: ${runId} via at \\d{4}-`));
    const used = await client.approvals.approveLink(link, { years: 2 }).catch((x: unknown) => x);
    expect(used).toMatchObject({ status: 409, code: 'APPROVAL_NOT_WAITING' });
    const task = await client.tasks.wait(runId, { intervalMs: 200, timeoutMs: 60_000 });
    expect(task.status).toBe('completed');
    expect((task.result as { outputs: Record<string, unknown> }).outputs).toMatchObject({
      buy: { decision: 'approved', payload: { budget: 5 } },
      also: { decision: 'rejected' },
      via: { decision: 'approved', payload: { years: 2 }, decided_by: 'link' },
    });
  });

  it('events: the CLI sends one that resumes a waiting run; the SDK sends one that starts a run', async () => {
    const waiter = await client.workflows.create(`title: Wait for payment (clients)
start_when: { manual: {} }
steps:
  - id: paid
    wait_for_event: { name: clients.paid, match: { order_id: ord-9 }, timeout: 1h }
`);
    const { task_id: runId } = await client.workflows.run(waiter.id);
    for (let i = 0; i < 100; i++) {
      const t = await client.tasks.get(runId);
      if (t.steps?.[0]?.event) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const miss = await cli('events', 'send', 'clients.paid', '--data', '{"order_id":"ord-8"}');
    expect(miss).toMatchObject({
      code: 0,
      stderr: '',
      stdout: 'clients.paid: resumed 0 waiting run(s), started 0 run(s)\n',
    });
    const hit = await cli('events', 'send', 'clients.paid', '--data', '{"order_id":"ord-9"}', '--json');
    expect([hit.code, JSON.parse(hit.stdout)]).toEqual([0, { resumed: 1, started: 0 }]);
    const done = await client.tasks.wait(runId, { intervalMs: 200, timeoutMs: 60_000 });
    expect((done.result as { outputs: Record<string, unknown> }).outputs.paid).toEqual({
      received: true,
      data: { order_id: 'ord-9' },
    });
    const starter = await client.workflows.create(`title: Started by an event (clients)
start_when:
  event: { name: clients.started, inputs: { n: { type: integer, required: true } } }
steps:
  - id: pause
    wait: { duration: 1s }
`);
    const bad = await cli('events', 'send', 'clients.started', '--data', '{"n":"x"}');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error: INVALID_PARAMETER \(HTTP 400\): /);
    expect(bad.stderr).toContain('  data.n: must be of type integer');
    expect(await client.events.send('clients.started', { n: 2 })).toEqual({ resumed: 0, started: 1 });
    expect(await client.workflows.runs(starter.id)).toHaveLength(1);
  });

  it('re-runs: the CLI re-runs a failed run from its failed step and shows reused steps; the SDK names a bad step', async () => {
    const def = await client.workflows.create(`title: Re-run (clients)
start_when:
  manual:
    inputs:
      stop: { type: boolean, default: true }
steps:
  - id: pause
    wait: { duration: 1s }
  - id: gate
    if: inputs.stop == true
    fail: { code: STOPPED, message: Stopped on purpose. }
`);
    const { task_id: runId } = await client.workflows.run(def.id);
    const failed = await client.tasks.wait(runId, { intervalMs: 200, timeoutMs: 60_000 });
    expect(failed.status).toBe('failed');
    const bad = await client.runs.rerun(runId, { fromStep: 'nowhere' }).catch((x: unknown) => x);
    expect(bad).toMatchObject({
      status: 422,
      code: 'INVALID_RERUN',
      details: {
        issues: [{ path: 'from_step', message: 'Names no top-level step of the run.' }],
        steps: ['pause', 'gate'],
      },
    });
    // A step's view: a wait calls nothing; a step the run lacks is 404.
    expect(await client.runs.step(runId, 'pause')).toEqual({
      run_id: runId,
      step_id: 'pause',
      kind: 'wait',
      skill: null,
      call: null,
    });
    expect(await client.runs.step(runId, 'nowhere').catch((x: unknown) => x)).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      message: 'The run has no step with this id.',
    });
    const usage = await cli('runs', 'rerun', runId, '--input', 'Stop');
    expect(usage).toMatchObject({ code: 2, stdout: '' });
    expect(usage.stderr).toContain('--input takes name=value, the name in lower case.');
    const started = await cli('runs', 'rerun', runId, '--input', 'stop=false');
    expect(started.code, started.stderr).toBe(0);
    const [newId, line] = started.stdout.trimEnd().split('\n');
    expect(newId).toMatch(/^task_/);
    expect(line).toBe(`  re-runs ${runId} from gate; reuses pause`);
    const shown = await cli('tasks', 'get', newId!, '--wait');
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`  re-run of ${runId}\n`);
    expect(shown.stdout).toMatch(/↺ pause +reused/);
    expect(shown.stdout).toMatch(/↷ gate +skipped/);
  });

  it('flow control: a run waits queued for its place; the SDK reads the place and the CLI shows it', async () => {
    // The parent's use_workflow step holds its place while its child waits 3 s.
    const child = await client.workflows.create(`title: Queue child (clients)
start_when:
  manual: {}
steps:
  - id: pause
    wait: { duration: 3s }
`);
    const parent = await client.workflows.create(`title: One at a time (clients)
concurrency: { limit: 1 }
start_when:
  manual: {}
steps:
  - id: inner
    use_workflow: { workflow: ${child.id} }
`);
    const started = [
      (await client.workflows.run(parent.id)).task_id,
      (await client.workflows.run(parent.id)).task_id,
    ];
    // Whichever reaches the queue second waits (the two start at once).
    const waiting = async () => {
      for (const id of started) {
        const task = await client.tasks.get(id);
        if (task.queue?.position === 1) return task;
      }
      return undefined;
    };
    let queued = await waiting();
    const deadline = Date.now() + 20_000;
    while (!queued && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      queued = await waiting();
    }
    expect(queued?.status).toBe('queued');
    expect(queued?.queue).toEqual({ position: 1, reason: 'concurrency' });
    const second = queued!.task_id;
    const shown = await cli('tasks', 'get', second);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`${second}  queued  `);
    expect(shown.stdout).toContain(
      "\n  waiting for its turn: position 1 (the definition's concurrency limit)\n",
    );
    for (const id of started)
      expect((await client.tasks.wait(id, { intervalMs: 200, timeoutMs: 60_000 })).status).toBe('completed');
    const done = await client.tasks.get(second);
    expect(done.queue).toBeUndefined();
  });

  it('webhooks: apply prints the URL and secret once, hook show/rotate, an SDK-signed request starts a run', async () => {
    const file = path.join(tmp, 'hooked.yaml');
    writeFileSync(
      file,
      `title: Hooked (clients)
start_when:
  webhook: { inputs: { n: { type: integer, required: true } } }
steps:
  - id: pause
    wait: { duration: 1s }
`,
    );
    const applied = await cli('workflows', 'apply', file);
    expect(applied.code, applied.stderr).toBe(0);
    const [head, urlLine, secretLine] = applied.stdout.trimEnd().split('\n');
    expect(head).toMatch(/^created (wf_[a-z0-9]+) \(version 1, webhook\)$/);
    const id = head!.split(' ')[1]!;
    expect(urlLine).toMatch(new RegExp(`^hook URL: ${stack.url}/v1/hooks/hk_[0-9a-f]{32}$`));
    expect(secretLine).toMatch(/^signing secret \(shown this once, keep it safe\): whsec_[A-Za-z0-9_-]{43}$/);
    const url = urlLine!.slice('hook URL: '.length);
    const secret = secretLine!.split(': ')[1]!;
    // Applying it again shows the URL, never the secret.
    const again = await cli('workflows', 'apply', file);
    expect(again.stdout).toBe(`unchanged ${id} (version 1, webhook)\nhook URL: ${url}\n`);
    expect(await cli('workflows', 'hook', 'show', id)).toMatchObject({
      code: 0,
      stdout: `hook URL: ${url}\n`,
    });

    const post = async (key: string, body: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [WEBHOOK_SIGNATURE_HEADER]: await signWebhook(key, body),
        },
        body,
      });
    const started = await post(secret, '{"n":3,"other":true}');
    expect(started.status).toBe(202);
    const { task_id: runId } = (await started.json()) as { task_id: string };
    expect((await client.tasks.wait(runId, { intervalMs: 200, timeoutMs: 60_000 })).status).toBe('completed');

    const rotated = await cli('workflows', 'hook', 'rotate', id, '--json');
    expect(rotated.code, rotated.stderr).toBe(0);
    const fresh = JSON.parse(rotated.stdout) as { url: string; signing_secret: string };
    expect(fresh.url).toBe(url);
    expect((await post(secret, '{"n":4}')).status).toBe(401);
    expect((await post(fresh.signing_secret, '{"n":4}')).status).toBe(202);
    const sdk = await client.workflows.hook.rotate(id, { keepPreviousSeconds: 60 });
    expect((await post(fresh.signing_secret, '{"n":5}')).status).toBe(202);
    expect((await post(sdk.signing_secret, '{"n":6}')).status).toBe(202);
    const usage = await cli('workflows', 'hook', 'rotate', id, '--keep-previous', '2d');
    expect([usage.code, usage.stderr]).toEqual([
      2,
      'error: USAGE: --keep-previous takes whole seconds from 0 to 86400.\n',
    ]);
    // Visibility trails a start by a moment.
    let runs = 0;
    for (let i = 0; i < 50 && runs !== 4; i++) {
      runs = (await client.workflows.runs(id)).length;
      if (runs !== 4) await new Promise((r) => setTimeout(r, 200));
    }
    expect(runs).toBe(4);
  });

  it('schedules: the CLI pauses, triggers and resumes a schedule and prints its state; a definition without one is the API error', async () => {
    const { id } = await client.workflows.create(`title: Paused (clients)
start_when:
  schedule: { every: 1h, timezone: UTC }
steps:
  - id: pause
    wait: { duration: 1s }
`);
    const scheduleId = `schedule_${id}`;
    const paused = await cli('workflows', 'schedule', 'pause', id);
    expect([paused.code, paused.stderr]).toEqual([0, '']);
    const lines = paused.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual([`paused ${id}`, `schedule ${scheduleId}: paused (UTC)`]);
    expect(lines[2]).toMatch(/^next runs: (none|\d{4}-\d\d-\d\dT\d\d:00:00\.000Z(, |$))/);
    expect((await client.workflows.get(id)).schedule?.paused).toBe(true);

    const triggered = await cli('workflows', 'schedule', 'trigger', id, '--json');
    expect([triggered.code, triggered.stderr]).toEqual([0, '']);
    expect(JSON.parse(triggered.stdout)).toMatchObject({
      schedule_id: scheduleId,
      paused: true,
      timezone: 'UTC',
    });
    // The trigger started one run although the schedule is paused. Visibility trails.
    let runs = 0;
    for (let i = 0; i < 50 && runs !== 1; i++) {
      runs = (await client.workflows.runs(id)).length;
      if (runs !== 1) await new Promise((r) => setTimeout(r, 200));
    }
    expect(runs).toBe(1);

    const resumed = await cli('workflows', 'schedule', 'resume', id);
    expect([resumed.code, resumed.stderr]).toEqual([0, '']);
    expect(resumed.stdout.split('\n').slice(0, 2)).toEqual([
      `resumed ${id}`,
      `schedule ${scheduleId}: active (UTC)`,
    ]);
    expect((await client.workflows.get(id)).schedule?.paused).toBe(false);
    await client.workflows.delete(id);

    const manual = await client.workflows.create(`title: Not scheduled (clients)
start_when:
  manual: {}
steps:
  - id: pause
    wait: { duration: 1s }
`);
    const refused = await cli('workflows', 'schedule', 'pause', manual.id);
    expect([refused.code, refused.stdout, refused.stderr]).toEqual([
      1,
      '',
      'error: CONFLICT (HTTP 409): This workflow has no schedule (start_when is manual).\n',
    ]);
    await client.workflows.delete(manual.id);
  });

  it('schedules: CLI and SDK backfill a past window, one run per tick; a refused window is the API error', async () => {
    const created = await client.workflows.create(`title: Backfilled (clients)
start_when:
  schedule: { every: 1m, timezone: UTC }
steps:
  - id: pause
    wait: { duration: 1s }
`);
    const id = created.id;
    await client.workflows.schedule.pause(id);
    const minute = 60_000;
    const at = (ms: number) => new Date(ms).toISOString();
    const base = Math.floor(Date.now() / minute) * minute - 10 * minute + 30_000;
    const cliRun = await cli(
      'workflows',
      'schedule',
      'backfill',
      id,
      '--start',
      at(base),
      '--end',
      at(base + 3 * minute),
      '--overlap',
      'allow_all',
    );
    expect([cliRun.code, cliRun.stdout, cliRun.stderr]).toEqual([
      0,
      `backfill of 3 ticks from ${at(base)} to ${at(base + 3 * minute)} (overlap allow_all)\n`,
      '',
    ]);
    const sdk = await client.workflows.schedule.backfill(id, {
      start: new Date(base + 3 * minute),
      end: new Date(base + 5 * minute),
    });
    expect(sdk).toEqual({
      workflow_id: id,
      ticks: 2,
      start: at(base + 3 * minute),
      end: at(base + 5 * minute),
      overlap: 'skip',
    });
    const refused = await cli(
      'workflows',
      'schedule',
      'backfill',
      id,
      '--start',
      at(base),
      '--end',
      at(base),
    );
    expect([refused.code, refused.stdout]).toEqual([1, '']);
    expect(refused.stderr).toMatch(
      /^error: INVALID_BACKFILL_WINDOW \(HTTP 422\): Invalid backfill window at end: must be after start\n/,
    );
    const usage = await cli(
      'workflows',
      'schedule',
      'backfill',
      id,
      '--start',
      at(base),
      '--end',
      at(base + minute),
      '--overlap',
      'queue',
    );
    expect([usage.code, usage.stderr]).toEqual([
      2,
      'error: USAGE: --overlap takes one of skip, buffer_one, buffer_all, cancel_other, terminate_other, allow_all.\n',
    ]);
    // 3 ticks at once (allow_all), then the first of 2 that fall due together (skip). Visibility trails.
    let runs = 0;
    for (let i = 0; i < 100 && runs !== 4; i++) {
      runs = (await client.workflows.runs(id)).filter((r) => r.trigger === 'schedule').length;
      if (runs !== 4) await new Promise((r) => setTimeout(r, 200));
    }
    expect(runs).toBe(4);
    await client.workflows.delete(id);
  });

  it('API errors: envelope code, message and failing paths on stderr, no stack trace; the SDK throws the same', async () => {
    const bad = { requests: [{ quer: 'cedar' }] };
    const run = await cli('apps', 'hosting', 'search_domains', '--input', JSON.stringify(bad));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: INVALID_PARAMETER \(HTTP 400\): /);
    expect(run.stderr).toContain('  requests[0].query: ');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const e = await client.app('hosting').searchDomains!(bad).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SkillflowApiError);
    expect(e).toMatchObject({ status: 400, code: 'INVALID_PARAMETER' });
    expect((e as SkillflowApiError).issues.map((i) => i.path)).toEqual(
      expect.arrayContaining(['requests[0].query']),
    );

    const unauth = await runCli(['workflows', 'list'], {
      SKILLFLOW_URL: stack.url,
      SKILLFLOW_API_KEY: 'sf_nope',
    });
    expect(unauth.code).toBe(1);
    expect(unauth.stderr).toMatch(/^error: UNAUTHENTICATED \(HTTP 401\): /);
    expect(unauth.stderr).not.toContain('sf_nope');
    expect((await cli('workflows', 'bogus')).code).toBe(2);
    // A mistyped skill: the API's 404, and the closest names of the catalogue.
    expect(await cli('apps', 'hosting', 'search_domain', '--input', JSON.stringify(INPUT))).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: SKILL_NOT_FOUND (HTTP 404): No available skill with that id.\n' +
        'hint: did you mean skillflow apps hosting search_domains?\n',
    });
  });

  it('keys: create prints the token once, list never does, revoke makes it unusable', async () => {
    const created = await cli(
      'keys',
      'create',
      '--name',
      'e2e',
      '--scopes',
      'workflows,app:hosting',
      '--json',
    );
    expect(created.code).toBe(0);
    expect(created.stderr).toMatch(/only time the token is shown/);
    const key = JSON.parse(created.stdout) as { id: string; token: string; scopes: string[] };
    expect(key.scopes).toEqual(['workflows', 'app:hosting']);
    const line = async () => (await cli('keys', 'list')).stdout.split('\n').find((l) => l.startsWith(key.id));
    const list = await cli('keys', 'list');
    expect(list.stdout).not.toContain(key.token);
    expect(await line()).toMatch(/^\S+ {2}active {3}\S+ +workflows,app:hosting +e2e {2}\(never used\)$/);
    // -q: the token alone on stdout, the warning still on stderr.
    const quiet = await cli('keys', 'create', '--name', 'e2e-quiet', '--scopes', 'workflows', '-q');
    expect(quiet).toMatchObject({
      code: 0,
      stderr: expect.stringMatching(/only time the token is shown/) as string,
    });
    expect(quiet.stdout).toMatch(/^sf_k[0-9a-f]{16}_[A-Za-z0-9_-]{43}\n$/);
    const scoped = createClient({ baseUrl: stack.url, token: key.token });
    const usedAt = Date.now();
    expect(Array.isArray(await scoped.workflows.list())).toBe(true);
    // The use is recorded in the background, to the minute.
    let shown: string | undefined;
    for (let i = 0; i < 20 && !shown?.includes('last used'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      shown = await line();
    }
    const minute = / {2}active {3}.* \(last used (\d{4}-\d\d-\d\d) (\d\d:\d\d) UTC\)$/.exec(shown ?? '');
    expect(minute, shown).not.toBeNull();
    expect(Math.abs(Date.parse(`${minute![1]}T${minute![2]}:00Z`) - usedAt)).toBeLessThan(120_000);
    expect((await cli('keys', 'revoke', key.id)).code).toBe(0);
    await expect(scoped.workflows.list()).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect(await line()).toMatch(/^\S+ {2}revoked {2}\S+ +workflows,app:hosting +e2e {2}\(last used /);
  });
});
