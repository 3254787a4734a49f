/**
 * Records one workflow history per language feature into test/fixtures/histories/, for the
 * replay test (test/integration/replay.test.ts) that proves interpreter changes keep open runs
 * working. Run it deliberately (`npm run record:histories`) when a feature is added — never to
 * "fix" a failing replay: a failing replay means a change needs `patched()`.
 *
 * `npm run record:histories -- name…` records only the named histories (a definition in
 * `definitions/`, or `skill-call`), so adding a feature keeps the older recordings, which are
 * the ones that prove runs started by older code still replay.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { activityPolicy } from '../activities/policy.js';
import { startEngine } from '../test/helpers/engine.js';
import { createLogger } from '../lib/logger.js';
import { installTemporalRuntime } from '../lib/temporal/runtime.js';
import { staticSecrets } from '../lib/secrets.js';
import { startDecisionSimulator } from '../simulators/decision/server.js';

installTemporalRuntime(createLogger('warn'));
const dir = path.resolve(import.meta.dirname, '../test/fixtures/histories');
const only = process.argv.slice(2);
const wanted = (name: string) => only.length === 0 || only.includes(name);
// The decide history is recorded on the model path, against the decision simulator.
const decision = await startDecisionSimulator();
const h = await startEngine({
  config: { DECISION_URL: decision.url, RATE_LIMIT_STANDARD_PER_MINUTE: 100_000 },
  secrets: staticSecrets({ decision_api_key: decision.apiKey }),
});
const created = new Map<string, string>();
try {
  for (const file of readdirSync(path.join(dir, 'definitions'))
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const name = file.replace(/\.yaml$/, '');
    if (!wanted(name)) continue;
    // `wf_history_<name>` names the definition recorded from `<name>.yaml` earlier in this run.
    const source = readFileSync(path.join(dir, 'definitions', file), 'utf8').replace(
      /wf_history_([a-z0-9_]+)/g,
      (whole, name: string) => created.get(name) ?? whole,
    );
    const def = await h.request('POST', '/v1/workflows', source, 'application/yaml');
    if (def.status !== 201) throw new Error(`${file}: ${def.body}`);
    created.set(name.replaceAll('-', '_'), def.json.id as string);
    let taskId: string;
    if (def.json.trigger_type === 'schedule') {
      await h.request('POST', `/v1/workflows/${def.json.id}/schedule/trigger`);
      let runs: { task_id: string; status: string }[] = [];
      while (!runs.some((r) => r.status !== 'RUNNING')) {
        await new Promise((r) => setTimeout(r, 200));
        runs = (await h.request('GET', `/v1/workflows/${def.json.id}/runs`)).json.runs;
      }
      taskId = runs[0]!.task_id;
    } else {
      const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, {
        inputs:
          name === 'references-and-chat' || name === 'decide'
            ? { word: 'cedar' }
            : name === 'concurrency'
              ? { hold_ms: 1500 }
              : {},
      });
      taskId = run.json.task_id;
    }
    if (name === 'approval') {
      // A refused decision (wrong payload) first: the validator leaves no trace in the history.
      await h.waitForTask(
        taskId,
        (t) => t.steps?.filter((s: { approval?: unknown }) => s.approval).length === 2,
      );
      const decide = (step: string, body: unknown) =>
        h.request('POST', `/v1/runs/${taskId}/approvals/${step}`, body);
      await decide('ok', { decision: 'approved', payload: { budget: 'many' } });
      await decide('ok', { decision: 'approved', payload: { budget: 7 } });
      await decide('second', { decision: 'rejected' });
    }
    if (name === 'event-wait') {
      // An event that does not fit first (the run's handler ignores it), then the two that do.
      await h.waitForTask(taskId, (t) => t.steps?.filter((s: { event?: unknown }) => s.event).length === 2);
      const send = (body: unknown) => h.request('POST', '/v1/events', body);
      await send({ name: 'order.paid', data: { order_id: 'ord-2', amount: 1 } });
      await send({ name: 'order.paid', data: { order_id: 'ord-1', amount: 12 } });
      await send({ name: 'order.shipped', data: {} });
    }
    if (name === 'concurrency') {
      // The history is a second run of the key: it waits queued while the first holds the place
      // (its first step takes 1.5 s), runs its first step while the first one waits (a wait
      // holds no place), and takes its place back after its own wait.
      await h.waitForTask(taskId, (t) => t.steps?.[0]?.status === 'running');
      const second = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, {});
      if (second.status !== 202) throw new Error(`concurrency: ${second.body}`);
      taskId = second.json.task_id;
    }
    if (name.endsWith('cancelled')) {
      await h.waitForTask(taskId, (t) => t.steps?.[0]?.status === 'running');
      await h.request('POST', `/v1/tasks/${taskId}/cancel`);
    }
    if (name === 'rerun') {
      // The history is the re-run's: it takes over the first steps and the loop's completed
      // elements, runs the failed element again, and passes the gate.
      await h.waitForTask(taskId, (t) => t.status === 'failed');
      const again = await h.request('POST', `/v1/runs/${taskId}/rerun`, {
        from_step: 'each',
        inputs: { stop: false },
      });
      if (again.status !== 202) throw new Error(`rerun: ${again.body}`);
      taskId = again.json.task_id;
    }
    const final = await h.waitForTask(taskId, (t) => ['completed', 'failed', 'cancelled'].includes(t.status));
    const history = await h.env.client.workflow.getHandle(taskId).fetchHistory();
    writeFileSync(path.join(dir, `${name}.json`), historyToJSON(history) + '\n');
    if (name === 'concurrency') {
      // The owner's gate (still open, idle), so its own code is replay-tested too.
      const gate = await h.env.client.workflow.getHandle('gate_owner_a').fetchHistory();
      writeFileSync(path.join(dir, 'gate.json'), historyToJSON(gate) + '\n');
    }
    if (name === 'loop-batches') {
      // The first batch's child workflow, so its own code is replay-tested too.
      const batch = await h.env.client.workflow.getHandle(`${taskId}.1`).fetchHistory();
      writeFileSync(path.join(dir, 'loop-batch.json'), historyToJSON(batch) + '\n');
    }
    process.stdout.write(`${name}: ${final.status}, ${history.events?.length} events\n`);
  }
  if (wanted('skill-call')) {
    const handle = await h.env.client.workflow.start('runSkillCall', {
      taskQueue: h.taskQueue,
      workflowId: 'task_history_skill_call',
      args: [
        { skill: 'echo.shout', input: { requests: [{ text: 'call' }] }, policy: activityPolicy('local') },
      ],
    });
    await handle.result();
    writeFileSync(path.join(dir, 'skill-call.json'), historyToJSON(await handle.fetchHistory()) + '\n');
    process.stdout.write('skill-call: completed\n');
  }
} finally {
  await h.close();
  await decision.close();
}
