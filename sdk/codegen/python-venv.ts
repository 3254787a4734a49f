/**
 * The Python SDK's project-local environment, .tools/python-sdk-venv (ignored by git), the way
 * lib/temporal/cli.ts keeps the Temporal CLI wheel: a venv with the pinned packages of
 * sdk/python/requirements-dev.txt (httpx, pydantic, pytest, datamodel-code-generator) and the
 * SDK itself, installed with `pip install ./sdk/python` (not editable, so the tests exercise the
 * installed package). Idempotent: a stamp holds the hash of the requirements and of the
 * package's files, and nothing is installed while it matches.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The SDK's folder, relative to the project root. */
export const PYTHON_SDK_DIR = path.join('sdk', 'python');

/** A provisioned environment. */
export interface PythonSdkVenv {
  dir: string;
  /** The venv's interpreter. */
  python: string;
  /** The venv's `datamodel-codegen`. */
  codegen: string;
}

/** Options of {@link provisionPythonSdkVenv}. */
export interface PythonVenvOptions {
  rootDir: string;
  /** Interpreter that creates the venv. Default: `python3`. */
  python?: string;
  log?: (message: string) => void;
}

// Build and cache output the hash must not see (pip writes build/ and *.egg-info on install).
const SKIPPED = new Set(['__pycache__', '.pytest_cache', 'build', 'dist', 'tests']);

function packageFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (SKIPPED.has(name) || name.endsWith('.egg-info')) continue;
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) files.push(...packageFiles(file));
    else files.push(file);
  }
  return files;
}

/** Hash of everything the venv is made from: the pins and the SDK's sources. */
export function venvStamp(rootDir: string): string {
  const hash = createHash('sha256');
  for (const file of packageFiles(path.join(rootDir, PYTHON_SDK_DIR))) {
    hash.update(path.relative(rootDir, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/** Paths inside the venv. */
export function pythonSdkVenv(rootDir: string): PythonSdkVenv {
  const dir = path.join(rootDir, '.tools', 'python-sdk-venv');
  return {
    dir,
    python: path.join(dir, 'bin', 'python'),
    codegen: path.join(dir, 'bin', 'datamodel-codegen'),
  };
}

/** Creates or refreshes .tools/python-sdk-venv; instant when it is current. */
export async function provisionPythonSdkVenv(opts: PythonVenvOptions): Promise<PythonSdkVenv> {
  const venv = pythonSdkVenv(opts.rootDir);
  const stampFile = path.join(venv.dir, '.skillflow-stamp');
  const stamp = venvStamp(opts.rootDir);
  const current = () => existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === stamp;
  if (current()) return venv;
  await mkdir(path.dirname(venv.dir), { recursive: true });
  // Test files run in parallel: one installs, the others wait for it and find the venv current.
  return withLock(`${venv.dir}.lock`, async () => {
    if (current()) return venv;
    const log = opts.log ?? (() => undefined);
    const sdkDir = path.join(opts.rootDir, PYTHON_SDK_DIR);
    log(`Installing the Python SDK and its pinned test tools into ${path.relative(opts.rootDir, venv.dir)}`);
    if (!existsSync(venv.python)) await run(opts.python ?? 'python3', ['-m', 'venv', venv.dir]);
    const pip = (...args: string[]) =>
      run(venv.python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', ...args], {
        cwd: opts.rootDir,
        maxBuffer: 16 * 1024 * 1024,
      });
    await pip('-r', path.join(sdkDir, 'requirements-dev.txt'));
    // `pip install ./sdk/python`, as a user would; --force-reinstall picks up changed sources.
    await pip('--no-deps', '--force-reinstall', `./${PYTHON_SDK_DIR}`);
    writeFileSync(stampFile, stamp + '\n');
    return venv;
  });
}

/** The longest an install may hold the lock; an older lock is a crashed run's and is taken over. */
const LOCK_STALE_MS = 15 * 60_000;

/** Runs `fn` holding a directory lock (mkdir is atomic), waiting for another holder to finish. */
async function withLock<T>(lock: string, fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
      else await sleep(500);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
