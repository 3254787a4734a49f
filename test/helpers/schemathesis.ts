/**
 * Schemathesis, the OpenAPI contract tester, pinned and installed from PyPI into the
 * project-local venv `.tools/schemathesis-venv` on first use (lib/python-venv.ts), and a runner
 * for `schemathesis run` with test/contract/schemathesis.toml.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../lib/config.js';
import { provisionPinnedTool, type PinnedTool } from '../../lib/python-venv.js';

/** The pinned release. Bump deliberately: new releases add checks. */
export const SCHEMATHESIS: PinnedTool = {
  venv: 'schemathesis-venv',
  pkg: 'schemathesis',
  version: '4.32.5',
  executable: 'schemathesis',
};

/** The outcome of one run: exit code, the whole output and its last (summary) line. */
export interface SchemathesisRun {
  code: number;
  output: string;
  summary: string;
}

/** Options of one run against a running API. */
export interface SchemathesisOptions {
  baseUrl: string;
  token: string;
  seed: number;
  maxExamples: number;
  reportDir: string;
  /** The phases to run; all four by default. */
  phases?: ReadonlyArray<'examples' | 'coverage' | 'fuzzing' | 'stateful'>;
}

/** One request of a run's HAR report (`--report har`). */
interface HarEntry {
  request: { method: string; url: string };
  response: { status: number };
}

/**
 * The statuses every operation of `paths` (OpenAPI path templates) answered during a run, from
 * the HAR report in `reportDir`: `{ 'GET /v1/tasks/{task_id}': { 200: 12, 404: 30 } }`. Requests
 * to no documented path are counted under `(undocumented)`.
 */
export function statusesByOperation(
  reportDir: string,
  paths: string[],
): Record<string, Record<number, number>> {
  const file = readdirSync(reportDir).find((f) => /^har-.*\.json$/.test(f));
  if (!file) throw new Error(`no HAR report in ${reportDir}`);
  const har = JSON.parse(readFileSync(path.join(reportDir, file), 'utf8')) as {
    log: { entries: HarEntry[] };
  };
  // Literal paths first, so `/v1/workflows/validate` is not taken for `/v1/workflows/{id}`.
  const templates = [...paths]
    .sort((a, b) => a.split('{').length - b.split('{').length)
    .map((t) => ({
      template: t,
      re: new RegExp(`^${t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
    }));
  const counts: Record<string, Record<number, number>> = {};
  for (const { request, response } of har.log.entries) {
    const pathname = new URL(request.url).pathname;
    const match = templates.find((t) => t.re.test(pathname));
    const op = match ? `${request.method.toUpperCase()} ${match.template}` : '(undocumented)';
    const byStatus = (counts[op] ??= {});
    byStatus[response.status] = (byStatus[response.status] ?? 0) + 1;
  }
  return counts;
}

/**
 * The links the stateful phase followed (`POST /v1/workflows -> [201] GetV1WorkflowsId -> GET
 * /v1/workflows/{id}`), from the NDJSON report in `reportDir`: every applied transition.
 */
export function linksFollowed(reportDir: string): Set<string> {
  const file = readdirSync(reportDir).find((f) => /^ndjson-.*\.ndjson$/.test(f));
  if (!file) throw new Error(`no NDJSON report in ${reportDir}`);
  const followed = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    const { transition, is_transition_applied: applied } = node as Record<string, unknown>;
    const id = (transition as { id?: unknown } | null | undefined)?.id;
    if (applied === true && typeof id === 'string') followed.add(id);
    Object.values(node).forEach(walk);
  };
  for (const line of readFileSync(path.join(reportDir, file), 'utf8').split('\n'))
    if (line.includes('"transition"')) walk(JSON.parse(line));
  return followed;
}

/** Runs every phase and check against `${baseUrl}/v1/openapi.json` (installing the tool if missing). */
export async function runSchemathesis(opts: SchemathesisOptions): Promise<SchemathesisRun> {
  const bin = await provisionPinnedTool(PROJECT_ROOT, SCHEMATHESIS, {
    log: (m) => process.stderr.write(`contract test: ${m}\n`),
  });
  const args = [
    '--config-file',
    path.join(PROJECT_ROOT, 'test/contract/schemathesis.toml'),
    'run',
    `${opts.baseUrl}/v1/openapi.json`,
    '--url',
    opts.baseUrl,
    '--checks',
    'all',
    '--phases',
    (opts.phases ?? ['examples', 'coverage', 'fuzzing', 'stateful']).join(','),
    '--seed',
    String(opts.seed),
    '--max-examples',
    String(opts.maxExamples),
    // One worker: CPython 3.11 fails with "AST constructor recursion depth mismatch" when
    // Hypothesis describes strategies in several threads at once.
    '--workers',
    '1',
    '--no-color',
    '--report',
    'junit,har,ndjson',
    '--report-dir',
    opts.reportDir,
  ];
  return new Promise((resolve) => {
    execFile(
      bin,
      args,
      {
        cwd: PROJECT_ROOT,
        // The token travels in the environment (the config file reads it), not on the command line.
        env: { ...process.env, SKILLFLOW_CONTRACT_TOKEN: opts.token, NO_COLOR: '1' },
        timeout: 900_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`;
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        const summary =
          output
            .split('\n')
            .map((l) => l.trim())
            .filter((l) => /^=+ .* in [\d.]+s =+$/.test(l))
            .pop() ?? '(no summary line)';
        resolve({ code, output, summary });
      },
    );
  });
}
