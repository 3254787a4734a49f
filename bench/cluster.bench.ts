/**
 * `npm run bench:cluster`: runs per second on the local cluster (scripts/cluster: two APIs, a
 * Temporal server built from its Go module on PostgreSQL) with 1, 2 and 4 worker processes,
 * side by side in one run; the ratio is each figure ÷ the 1-worker figure. A run is one
 * `send_chat_message` step (no upstream), started through both APIs with 16 requests in flight,
 * and counted done when Temporal's visibility lists it completed. Beside each figure: the share of
 * the machine's CPU capacity (all cores) each part used while it was measured, which says what
 * bounds the figure.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import { generateChatKeyPair } from '../sdk/chat-keys.js';
import { startLoopbackCluster } from '../scripts/cluster/loopback.js';

const RUNS = Number(process.env.BENCH_CLUSTER_RUNS ?? 150);
const IN_FLIGHT = 16;
const DEFINITION = `title: Bench chat
start_when:
  manual: {}
steps:
  - id: notify
    send_chat_message:
      title: Bench
      message: done
`;

const loopback = await startLoopbackCluster({
  workers: 4,
  log: (m) => process.stderr.write(`cluster: ${m}\n`),
  env: { RATE_LIMIT_PRO_PER_MINUTE: '1000000', OWNER_MAX_RUNNING_RUNS: '100000' },
});
const cluster = loopback.cluster;
// The runs' chat messages are sealed to the owner's chat keys: register one before any run.
await fetch(`${cluster.apiUrls[0]}/v1/chats/keys`, {
  method: 'POST',
  headers: { authorization: `Bearer ${cluster.apiKey}`, 'content-type': 'application/json' },
  body: JSON.stringify({ public_key: (await generateChatKeyPair()).publicKey, label: 'bench' }),
}).then((r) => {
  if (r.status >= 300) throw new Error(`registering a chat key: ${r.status}`);
});
const connection = await Connection.connect({ address: cluster.temporalAddress });
const namespace = cluster.settings.CLUSTER_NAMESPACE;

const api = async (i: number, method: string, route: string, body?: string) => {
  const res = await fetch(`${cluster.apiUrls[i % cluster.apiUrls.length]}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${cluster.apiKey}`,
      ...(body && { 'content-type': route.endsWith('/runs') ? 'application/json' : 'application/yaml' }),
    },
    ...(body && { body }),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
  return json;
};

const completed = async (defId: string): Promise<number> => {
  const res = await connection.workflowService.countWorkflowExecutions({
    namespace,
    query: `DefinitionId = '${defId}' AND ExecutionStatus = 'Completed'`,
  });
  return Number(res.count);
};

/** utime+stime of a process, in seconds (Linux /proc; 100 clock ticks per second). */
function cpuOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0; // the process has exited
  }
}

/** Children of `parent` (PostgreSQL's backends of its postmaster). */
function childrenOf(parent: number): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === parent;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** CPU seconds used so far by each part of the cluster and by this load generator. */
function cpuByPart(): Record<string, number> {
  const { temporal, postgres } = cluster.serverPids();
  const sum = (pids: (number | undefined)[]) =>
    pids.reduce<number>((t, p) => t + (p === undefined ? 0 : cpuOf(p)), 0);
  const usage = process.cpuUsage();
  return {
    'Temporal server': sum([temporal]),
    PostgreSQL: postgres === undefined ? 0 : sum([postgres, ...childrenOf(postgres)]),
    'API processes': sum(cluster.apis.map((a) => a.pid)),
    'worker processes': sum(cluster.workers.map((w) => w.pid)),
    'load generator': (usage.user + usage.system) / 1e6,
  };
}

/** Runs per second of `n` runs of a fresh definition with the workers running now. */
async function measure(n: number): Promise<number> {
  const def = (await api(0, 'POST', '/v1/workflows', DEFINITION)).id as string;
  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < n) {
        const i = next++;
        await api(i, 'POST', `/v1/workflows/${def}/runs`, '{"inputs":{}}');
      }
    }),
  );
  while ((await completed(def)) < n) await sleep(100);
  return n / ((Date.now() - started) / 1000);
}

try {
  const figures: Record<number, number> = {};
  /** Share of the machine's CPU capacity each part used during the measurement. */
  const cpu: Record<number, Record<string, number>> = {};
  for (const workers of [1, 2, 4]) {
    for (const [i, w] of cluster.workers.entries()) {
      if (i < workers) w.start();
      else await w.stop();
    }
    await sleep(3_000); // the started workers' pollers reach the server
    await measure(20); // warm-up: bundles, connections, caches
    const before = cpuByPart();
    const t0 = Date.now();
    figures[workers] = await measure(RUNS);
    const wall = (Date.now() - t0) / 1000;
    const after = cpuByPart();
    cpu[workers] = Object.fromEntries(
      Object.keys(after).map((k) => [k, (after[k]! - before[k]!) / (wall * os.cpus().length)]),
    );
  }
  const base = figures[1]!;
  process.stdout.write(
    `cluster throughput (${os.cpus().length} cores, ${RUNS} runs, ${IN_FLIGHT} starts in flight, 2 APIs)\n`,
  );
  for (const [workers, rate] of Object.entries(figures))
    process.stdout.write(
      `  ${workers} worker(s): ${rate.toFixed(1)} runs/s  ratio ${(rate / base).toFixed(2)}  CPU: ${Object.entries(
        cpu[Number(workers)]!,
      )
        .map(([k, v]) => `${k} ${(v * 100).toFixed(0)}%`)
        .join(', ')}\n`,
    );
} finally {
  await connection.close();
  await loopback.close();
}
