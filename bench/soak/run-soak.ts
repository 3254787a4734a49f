/**
 * One soak: the real stack as `npm start` runs it (API, worker and simulators in one process,
 * plus the Temporal dev server) on free loopback ports with its limits lifted, a warm-up, the
 * capacity ramp, then the mixed traffic at half of that capacity for `minutes` minutes, with the
 * service's and the dev server's RSS and open descriptors read every second. Everything it
 * starts, it stops.
 */
import os from 'node:os';
import { startStack } from '../../test/helpers/stack.js';
import { measureCapacity, openLoop, type OpenLoop, type RampStep } from './drive.js';
import { findDescendant, sampleProcess } from './process-stats.js';
import { Recorder, type MinuteFigures } from './recorder.js';
import { operations, schedule, type Target } from './traffic.js';

const HIGH = '100000000';

/**
 * Every limit that could refuse the soak's own traffic, lifted: the soak measures the service
 * under load, not its refusals, so no status but 2xx is expected.
 */
export const LIFTED_LIMITS: Record<string, string> = {
  RATE_LIMIT_PRO_PER_MINUTE: HIGH,
  PROVIDER_RATE_LIMITS: '',
  OWNER_PROVIDER_SHARE_PERCENT: '100',
  OWNER_MAX_RUNNING_RUNS: HIGH,
  OWNER_MAX_QUEUED_TASKS: HIGH,
  PUBLIC_RATE_LIMIT_PER_MINUTE: '0',
  ICON_SVG_RATE_LIMIT_PER_MINUTE: '0',
  ENCYCLOPEDIA_OWNER_PER_MINUTE: '0',
  ENCYCLOPEDIA_IP_PER_MINUTE: '0',
  ENCYCLOPEDIA_OUTBOUND_PER_MINUTE: HIGH,
};

/** The definition every run of the soak starts: an exact domain lookup, then a chat message. */
const DEFINITION = [
  'title: Soak',
  'start_when:',
  '  manual: {}',
  'steps:',
  '  - id: search',
  '    use_app_skill: hosting.search_domains',
  '    input:',
  '      requests:',
  '        - query: cedar.com',
  '  - id: notify',
  '    send_chat_message:',
  '      title: Soak',
  "      message: '{{steps.search.result_count}} domains found'",
  '',
].join('\n');

/**
 * The drive's first minute is a warm-up at the soak's rate, reported but not measured against
 * the goals: the ramp before it loads the service in bursts, and the first minute at a steady
 * rate still shows that (JIT, connection pools, the dev server's caches settling).
 */
export const WARMUP_MINUTES = 1;

/** The statuses a soak expects, by traffic kind; anything else is counted as unexpected. */
export const EXPECTED_STATUS = { quick: 200, run: 202, poll: 200, page: 200 } as const;

export interface SoakOptions {
  minutes: number;
  /** Length of each capacity-ramp step. */
  rampStepMs: number;
  /** The ramp stops at this many lanes. */
  maxLanes: number;
  /** Open operations at most; arrivals past it are shed (and counted). */
  maxInFlight: number;
  log(line: string): void;
}

export interface SoakResult {
  machine: { cpu: string; cores: number; memoryGb: number; node: string; loadBefore: number[] };
  ramp: RampStep[];
  /** Operations per second at the best ramp step. */
  capacity: number;
  /** The open-loop arrival rate: half the capacity. */
  rate: number;
  drive: OpenLoop;
  /** The warm-up minute (numbered 0). */
  warmup: MinuteFigures;
  /** The measured minutes, numbered from 1. */
  minutes: MinuteFigures[];
  statuses: Record<string, number>;
}

export async function runSoak(opts: SoakOptions): Promise<SoakResult> {
  const loadBefore = os.loadavg();
  opts.log(`load average before: ${loadBefore.map((l) => l.toFixed(2)).join(' ')}`);
  const stack = await startStack({
    timeoutMs: 300_000,
    env: { ...LIFTED_LIMITS, LOG_LEVEL: 'error', CHAT_SERVER_SEALED: 'true' },
  });
  try {
    const service = findDescendant(stack.pid, 'scripts/main.ts');
    if (service === undefined) throw new Error('the service process (scripts/main.ts) was not found');
    const temporal = findDescendant(service, 'start-dev');
    const created = await fetch(`${stack.url}/v1/workflows`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/yaml' },
      body: DEFINITION,
    });
    const definition = (await created.json()) as { id?: string };
    if (created.status !== 201 || !definition.id)
      throw new Error(`creating the definition: ${created.status}`);
    const index = await (await fetch(`${stack.url}/`)).text();
    const assets = [...new Set(index.match(/\/assets\/[\w.-]+/g) ?? [])];
    if (assets.length === 0) throw new Error('the workspace page names no assets');
    const target: Target = { url: stack.url, token: stack.token, definitionId: definition.id, assets };

    // Warm-up: every operation once, so one-time work (the icon index, first compiles) is done.
    const ops = operations(target);
    const warm = new Recorder(performance.now());
    for (const op of ops) await op.run(target, warm);
    opts.log(`warm-up: ${JSON.stringify(warm.statusTotals())}`);

    const next = schedule(ops);
    const { steps, capacity } = await measureCapacity(target, next, {
      stepMs: opts.rampStepMs,
      maxLanes: opts.maxLanes,
    });
    for (const s of steps)
      opts.log(
        `ramp: ${s.lanes} lanes → ${s.opsPerSecond.toFixed(1)} operations/s, ${s.requestsPerSecond.toFixed(1)} requests/s`,
      );
    const rate = capacity / 2;
    opts.log(
      `capacity ${capacity.toFixed(1)} operations/s; driving ${rate.toFixed(1)}/s for ${WARMUP_MINUTES} min of warm-up, then ${opts.minutes} min`,
    );

    const rec = new Recorder(performance.now());
    const read = () => {
      const now = performance.now();
      rec.loadAverage(now, os.loadavg()[0]!);
      const s = sampleProcess(service);
      if (s) rec.sample('service', now, s);
      const t = temporal === undefined ? undefined : sampleProcess(temporal);
      if (t) rec.sample('temporal', now, t);
    };
    read();
    const timer = setInterval(read, 1000);
    let drive: OpenLoop;
    try {
      drive = await openLoop(target, next, rec, {
        rate,
        durationMs: (WARMUP_MINUTES + opts.minutes) * 60_000,
        maxInFlight: opts.maxInFlight,
      });
    } finally {
      clearInterval(timer);
    }
    const [warmup, ...minutes] = rec.minutes(WARMUP_MINUTES + opts.minutes);
    return {
      machine: {
        cpu: os.cpus()[0]?.model ?? 'unknown',
        cores: os.cpus().length,
        memoryGb: os.totalmem() / 1024 ** 3,
        node: process.version,
        loadBefore,
      },
      ramp: steps,
      capacity,
      rate,
      drive,
      warmup: warmup!,
      minutes,
      statuses: rec.statusTotals(),
    };
  } finally {
    await stack.stop();
  }
}
