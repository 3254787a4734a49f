/**
 * Schemathesis, the OpenAPI contract tester, pinned and installed from PyPI into the
 * project-local venv `.tools/schemathesis-venv` on first use (lib/python-venv.ts), and a runner
 * for `schemathesis run` with test/contract/schemathesis.toml.
 */
import { execFile } from 'node:child_process';
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
    'examples,coverage,fuzzing,stateful',
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
    'junit',
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
