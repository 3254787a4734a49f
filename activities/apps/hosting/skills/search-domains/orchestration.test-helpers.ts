/**
 * Shared setup of the orchestration tests: a shop simulator, a real basic-auth proxy and a
 * decision simulator on 127.0.0.1 (port 0), and a `call()` that runs the registered skill
 * against them with per-test options. Not a test file itself.
 */
import { inspect } from 'node:util';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { loadConfig } from '../../../../../lib/config.js';
import { hostingConfig } from '../../config.js';
import { staticSecrets } from '../../../../../lib/secrets.js';
import { startDecisionSimulator, type DecisionSimulator } from '../../../../../simulators/decision/server.js';
import { startProxy, type ProxySimulator } from '../../../../../simulators/proxy/proxy-server.js';
import { startShopSimulator, type ShopSimulator } from '../../../../../simulators/shop/server.js';
import type { SearchDomainsOutput } from './output.js';
import type { SearchDiagnostics, SearchLimits } from './search-domains.js';
import { POLICY_PROFILES, resolvePolicy } from '../../../../policy.js';
import { createSearchDomainsSkill, type SearchDomainsSkill } from './skill.js';
import { runSkill } from '../../../../runtime/run-skill.js';
import { createUpstreamMeter } from '../../../../runtime/upstream-meter.js';
import type { UpstreamMeter } from '../../../../registry/types.js';

export const PROXY_USER = 'res-user-4410';
export const PROXY_PASS = 'pr0xy-Pa55-x7q';
export const DECISION_KEY = 'dk-test-5521c';
/** The fixed clock of every call: checked_at must be exactly this. */
export const CHECKED_AT = '2026-03-01T12:00:00.000Z';

export interface Upstreams {
  sim: ShopSimulator;
  proxy: ProxySimulator;
  decision: DecisionSimulator;
}

export interface CallOptions {
  /** Configure PROXY_URL (default true). */
  proxy?: boolean;
  /** Configure DECISION_URL (default true). */
  decision?: boolean;
  limits?: Partial<SearchLimits>;
  anonymous?: boolean;
  /** Another shop simulator's URL (default: the shared one). */
  shopUrl?: string;
  /** The caller's cancellation signal. */
  signal?: AbortSignal;
  /** The call's upstream meter (default: one that only counts). */
  meter?: UpstreamMeter;
}

export interface CallResult {
  output: SearchDomainsOutput | undefined;
  error: unknown;
  diagnostics: SearchDiagnostics | undefined;
  /** Every log line the skill wrote (trace level). */
  logs: string[];
  skill: SearchDomainsSkill;
  elapsedMs: number;
}

/** Registers the hooks; read the fields inside tests only. */
export function useUpstreams(): Upstreams {
  const up = {} as Upstreams;
  beforeAll(async () => {
    up.sim = await startShopSimulator();
    up.proxy = await startProxy({ username: PROXY_USER, password: PROXY_PASS });
    up.decision = await startDecisionSimulator({ apiKey: DECISION_KEY });
  });
  afterAll(async () => {
    await up.decision.close();
    await up.proxy.close();
    await up.sim.close();
  });
  beforeEach(() => {
    up.sim.reset();
    up.proxy.clearLog();
    up.decision.reset();
  });
  return up;
}

/** Runs the skill once through the one runner (schema parse, then run), without a deadline. */
export async function call(up: Upstreams, raw: unknown, opts: CallOptions = {}): Promise<CallResult> {
  const logs: string[] = [];
  const logger = pino({ level: 'trace' }, { write: (line: string) => void logs.push(line) });
  const config = loadConfig({
    SHOP_URL: opts.shopUrl ?? up.sim.url,
    PROXY_URL: opts.proxy === false ? undefined : up.proxy.url,
    DECISION_URL: opts.decision === false ? undefined : up.decision.url,
    LOG_LEVEL: 'trace',
  });
  let diagnostics: SearchDiagnostics | undefined;
  const skill = createSearchDomainsSkill(
    {
      config: hostingConfig(config),
      logger,
      secrets: staticSecrets({
        proxy_username: PROXY_USER,
        proxy_password: PROXY_PASS,
        decision_api_key: DECISION_KEY,
      }),
    },
    POLICY_PROFILES['upstream-search'].deadlines,
    { clock: () => new Date(CHECKED_AT), limits: opts.limits, onDiagnostics: (d) => (diagnostics = d) },
  );
  const started = performance.now();
  const ctx = {
    view: 'full',
    signal: opts.signal,
    anonymous: opts.anonymous ?? false,
    meter: opts.meter ?? createUpstreamMeter({ skill: 'hosting.search_domains' }),
  } as const;
  try {
    const { output } = await runSkill({ policy: resolvePolicy('upstream-search'), impl: skill }, raw, ctx);
    return { output, error: undefined, diagnostics, logs, skill, elapsedMs: performance.now() - started };
  } catch (error) {
    return { output: undefined, error, diagnostics, logs, skill, elapsedMs: performance.now() - started };
  }
}

/** The output of a call that must have succeeded. */
export async function ok(up: Upstreams, raw: unknown, opts: CallOptions = {}): Promise<SearchDomainsOutput> {
  const res = await call(up, raw, opts);
  if (res.error !== undefined) throw res.error as Error;
  return res.output!;
}

/** `op search` of every shop request, in arrival order (`lookup cedar.com`, `suggest cedar|com|1`). */
export function shopCalls(sim: ShopSimulator): string[] {
  return sim.requests().map((r) => {
    const p = (k: string) => (r.params[k] ?? []).join(',');
    return r.op === 'suggest' ? `suggest ${p('search')}|${p('tlds')}|${p('page')}` : `${r.op} ${p('search')}`;
  });
}

/** Every rendering of a value a log line or an API answer could contain. */
export function renderings(value: unknown): string {
  const e = value as { message?: unknown; stack?: unknown; details?: unknown };
  return [
    JSON.stringify(value),
    String(e?.message),
    String(e?.stack),
    JSON.stringify(e?.details),
    inspect(value, { depth: 12 }),
  ].join('\n');
}
