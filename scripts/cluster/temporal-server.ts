/**
 * Runs the built Temporal server on PostgreSQL: the schema set up (and upgraded) by the SQL tool
 * of the same version, the server configured through the environment variables of its embedded
 * config template (the same variables the `temporalio/server` image takes in
 * docker-compose.yml), and the namespace and skillflow's search attributes registered once it
 * answers.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import { PROJECT_ROOT } from '../../lib/config.js';
import { appendOutputToLog } from '../../lib/child-log.js';
import { ensureSearchAttributes } from '../../lib/temporal/ensure-search-attributes.js';
import type { TemporalServerTools } from './temporal-build.js';

export interface TemporalDatabase {
  host: string;
  port: number;
  user: string;
  password: string;
  /** Database names of the default and visibility stores. */
  main: string;
  visibility: string;
}

/** The server's dynamic config, shared with docker-compose.yml. */
export const DYNAMIC_CONFIG = path.join(PROJECT_ROOT, 'deploy', 'temporal-dynamicconfig.yaml');

/**
 * The environment of the server's config template. Ports: frontend gRPC `base`, frontend HTTP
 * base+10, history/matching/worker gRPC base+1/+2/+6, membership ports base-300 and up.
 */
export function temporalServerEnv(db: TemporalDatabase, basePort: number): Record<string, string> {
  return {
    DB: 'postgres12',
    POSTGRES_SEEDS: db.host,
    DB_PORT: String(db.port),
    POSTGRES_USER: db.user,
    POSTGRES_PWD: db.password,
    DBNAME: db.main,
    VISIBILITY_DBNAME: db.visibility,
    BIND_ON_IP: '127.0.0.1',
    FRONTEND_GRPC_PORT: String(basePort),
    FRONTEND_HTTP_PORT: String(basePort + 10),
    HISTORY_GRPC_PORT: String(basePort + 1),
    MATCHING_GRPC_PORT: String(basePort + 2),
    WORKER_GRPC_PORT: String(basePort + 6),
    FRONTEND_MEMBERSHIP_PORT: String(basePort - 300),
    HISTORY_MEMBERSHIP_PORT: String(basePort - 299),
    MATCHING_MEMBERSHIP_PORT: String(basePort - 298),
    WORKER_MEMBERSHIP_PORT: String(basePort - 294),
    NUM_HISTORY_SHARDS: '4',
    LOG_LEVEL: 'warn',
    DYNAMIC_CONFIG_FILE_PATH: DYNAMIC_CONFIG,
    // No authorizer, said so explicitly: the frontend listens on a private address only
    // (loopback here, the compose network there); docs/deployment.md says what exposing it needs.
    TEMPORAL_ALLOW_NO_AUTH: 'true',
  };
}

function sqlTool(tools: TemporalServerTools, db: TemporalDatabase, database: string, args: string[]) {
  const res = spawnSync(
    tools.sqlTool,
    ['--plugin', 'postgres12', '--ep', db.host, '-p', String(db.port), '--db', database, ...args],
    // The password travels in the environment, not on the command line.
    { encoding: 'utf8', env: { ...process.env, SQL_USER: db.user, SQL_PASSWORD: db.password } },
  );
  return { ok: res.status === 0, output: `${res.stdout}${res.stderr}` };
}

/**
 * Creates both databases when missing, sets up the base schema on an empty one and applies
 * every versioned upgrade (the tool skips the versions already applied).
 */
export function setupTemporalSchema(tools: TemporalServerTools, db: TemporalDatabase): void {
  for (const [database, dir] of [
    [db.main, tools.schema.temporal],
    [db.visibility, tools.schema.visibility],
  ] as const) {
    const created = sqlTool(tools, db, database, ['create-database']);
    if (!created.ok && !/already exists/.test(created.output))
      throw new Error(`creating the Temporal database ${database} failed: ${lastLine(created.output)}`);
    const hasSchema = sqlTool(tools, db, database, ['update-schema', '-d', path.join(dir, 'versioned')]);
    if (hasSchema.ok) continue;
    const setup = sqlTool(tools, db, database, ['setup-schema', '-v', '0.0']);
    if (!setup.ok)
      throw new Error(`setting up the Temporal schema of ${database} failed: ${lastLine(setup.output)}`);
    const update = sqlTool(tools, db, database, ['update-schema', '-d', path.join(dir, 'versioned')]);
    if (!update.ok)
      throw new Error(`upgrading the Temporal schema of ${database} failed: ${lastLine(update.output)}`);
  }
}

function logTail(file: string): string {
  try {
    return readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .slice(-4)
      .map((l) => l.slice(0, 400))
      .join('\n');
  } catch {
    return '(no log)';
  }
}

function lastLine(output: string): string {
  return output.trim().split('\n').slice(-1)[0] ?? '';
}

export interface RunningTemporal {
  address: string;
  child: ChildProcess;
  /** SIGTERM, then SIGKILL after 20 s; resolves when it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts the server and waits (up to `timeoutMs`) until its frontend answers. */
export async function startTemporalServer(opts: {
  tools: TemporalServerTools;
  env: Record<string, string>;
  logFile: string;
  timeoutMs?: number;
}): Promise<RunningTemporal> {
  const child = spawn(opts.tools.server, ['start'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  appendOutputToLog(child, opts.logFile);
  const address = `127.0.0.1:${opts.env.FRONTEND_GRPC_PORT}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(
        `the Temporal server exited (code ${child.exitCode}); the end of ${opts.logFile}:\n${logTail(opts.logFile)}`,
      );
    try {
      const conn = await Connection.connect({ address, connectTimeout: 2_000 });
      try {
        await conn.workflowService.getSystemInfo({});
      } finally {
        await conn.close();
      }
      return { address, child, stop };
    } catch {
      if (Date.now() > deadline) {
        await stop('SIGKILL');
        throw new Error(`the Temporal server did not answer on ${address}; see ${opts.logFile}`);
      }
      await sleep(500);
    }
  }
}

/**
 * Registers the namespace (7 days of retention) when missing and adds skillflow's search
 * attributes; waits until the namespace is usable (the frontend's namespace cache refreshes on
 * its own interval).
 */
export async function prepareNamespace(address: string, namespace: string): Promise<void> {
  const conn = await Connection.connect({ address });
  try {
    try {
      await conn.workflowService.describeNamespace({ namespace });
    } catch {
      await conn.workflowService
        .registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('7 days') })
        .catch((err: Error) => {
          if (!/already exists|AlreadyExists/i.test(err.message)) throw err;
        });
    }
    for (let i = 0; ; i++) {
      try {
        await ensureSearchAttributes(conn, namespace);
        await conn.workflowService.listWorkflowExecutions({ namespace, pageSize: 1 });
        return;
      } catch (err) {
        if (i >= 60) throw err;
        await sleep(500);
      }
    }
  } finally {
    await conn.close();
  }
}
