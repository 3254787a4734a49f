/**
 * The Temporal server of the local cluster, built from its Go module at a pinned version with
 * the machine's Go, and its SQL schema tool from the same module. Both binaries and the
 * module's PostgreSQL schema files are kept under `.tools/temporal-server-<version>/`; a second
 * start finds them there. A finished build is also kept in the machine's tools cache
 * (SKILLFLOW_TOOLS_CACHE, default `~/.cache/skillflow`), so a fresh clone on the same machine
 * copies it instead of building again; a rebuild reuses Go's own module and build caches.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

/** The pinned server release; docker-compose.yml runs the same version's images. */
export const TEMPORAL_SERVER_VERSION = '1.32.0';

const MODULE = 'go.temporal.io/server';

export interface TemporalServerTools {
  version: string;
  /** `temporal-server` (the server's `start` command). */
  server: string;
  /** `temporal-sql-tool`. */
  sqlTool: string;
  /** The PostgreSQL schema directories of the default and visibility stores. */
  schema: { temporal: string; visibility: string };
}

export function toolsDir(rootDir: string, version = TEMPORAL_SERVER_VERSION): string {
  return path.join(rootDir, '.tools', `temporal-server-${version}`);
}

function toolsAt(dir: string, version: string): TemporalServerTools {
  return {
    version,
    server: path.join(dir, 'bin', 'server'),
    sqlTool: path.join(dir, 'bin', 'sql'),
    schema: {
      temporal: path.join(dir, 'schema', 'temporal'),
      visibility: path.join(dir, 'schema', 'visibility'),
    },
  };
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, log: (m: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const keep = (d: Buffer) => {
      tail = (tail + d.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (err) => reject(new Error(`${cmd} could not start: ${err.message}`)));
    child.on('exit', (code) => {
      if (code === 0) resolve();
      else {
        log(tail);
        reject(new Error(`${cmd} ${args[0]} failed (exit ${code})`));
      }
    });
  });
}

/**
 * The tools, built first when missing (about five minutes on two cores without Go's caches,
 * seconds with them). Needs `go` on PATH and the Go module proxy.
 */
export async function ensureTemporalServer(opts: {
  rootDir: string;
  version?: string;
  log: (m: string) => void;
}): Promise<TemporalServerTools> {
  const version = opts.version ?? TEMPORAL_SERVER_VERSION;
  const dir = toolsDir(opts.rootDir, version);
  const tools = toolsAt(dir, version);
  if (existsSync(path.join(dir, '.complete'))) return tools;
  const cached = path.join(
    process.env.SKILLFLOW_TOOLS_CACHE || path.join(os.homedir(), '.cache', 'skillflow'),
    path.basename(dir),
  );
  if (existsSync(path.join(cached, '.complete'))) {
    cpSync(cached, dir, { recursive: true });
    opts.log(`Temporal server ${version} copied from the tools cache ${cached}`);
    return tools;
  }

  const goVersion = (() => {
    try {
      return execFileSync('go', ['version'], { encoding: 'utf8' }).trim();
    } catch {
      throw new Error(
        'building the Temporal server needs Go on PATH (https://go.dev/dl/ or apt-get install golang)',
      );
    }
  })();
  opts.log(`building the Temporal server ${version} from ${MODULE} with ${goVersion} (first time only)…`);
  const staging = `${dir}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(path.join(staging, 'bin'), { recursive: true });
  const env = {
    ...process.env,
    GOBIN: path.join(staging, 'bin'),
    GOFLAGS: '-buildvcs=false',
    CGO_ENABLED: '0',
  };
  await run(
    'go',
    ['install', '-ldflags=-s -w', `${MODULE}/cmd/server@v${version}`, `${MODULE}/cmd/tools/sql@v${version}`],
    env,
    opts.log,
  );
  // The schema files ship in the module; the build above put it in Go's module cache.
  const modDir = execFileSync('go', ['list', '-m', '-f', '{{.Dir}}', `${MODULE}@v${version}`], {
    encoding: 'utf8',
    env,
    cwd: staging,
  }).trim();
  for (const store of ['temporal', 'visibility'] as const)
    cpSync(path.join(modDir, 'schema', 'postgresql', 'v12', store), path.join(staging, 'schema', store), {
      recursive: true,
    });
  // Module cache files are read-only; the copies are ours to replace later.
  execFileSync('chmod', ['-R', 'u+w', path.join(staging, 'schema')]);
  writeFileSync(path.join(staging, '.complete'), `${version}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  try {
    rmSync(cached, { recursive: true, force: true });
    cpSync(dir, cached, { recursive: true });
  } catch {
    // The machine cache is an optimisation only.
  }
  opts.log(`Temporal server ${version} built into ${path.relative(opts.rootDir, dir)}`);
  return tools;
}
