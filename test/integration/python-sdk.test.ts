/**
 * The Python SDK under `npm test`: provisions .tools/python-sdk-venv from the project's own files
 * (the pins of sdk/python/requirements-dev.txt, then `pip install ./sdk/python`), checks that the
 * committed models are exactly what the pinned generator makes from the current OpenAPI document,
 * and runs the pytest suite (sdk/python/tests), which starts the stack with `npm start` on free
 * ports and holds the parity test (Python SDK, JS SDK, CLI `--json` and REST agree).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config.js';
import { generatePython } from '../../sdk/codegen/python-models.js';
import { provisionPythonSdkVenv, PYTHON_SDK_DIR, type PythonSdkVenv } from '../../sdk/codegen/python-venv.js';
import { processesMentioning } from '../helpers/stack.js';

describe('the Python SDK', () => {
  let venv: PythonSdkVenv;
  beforeAll(async () => {
    venv = await provisionPythonSdkVenv({
      rootDir: PROJECT_ROOT,
      log: (m) => process.stderr.write(`python-sdk: ${m}\n`),
    });
  }, 400_000);

  it('has models that match a fresh generation by the pinned datamodel-code-generator', async () => {
    for (const { file, text } of await generatePython(undefined, venv)) {
      expect(readFileSync(file, 'utf8'), `${path.relative(PROJECT_ROOT, file)} is stale`).toBe(text);
    }
  }, 120_000);

  it('passes its pytest suite against npm start, parity test included', async () => {
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        venv.python,
        ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'],
        {
          cwd: path.join(PROJECT_ROOT, PYTHON_SDK_DIR),
          env: { ...process.env, SKILLFLOW_NODE: process.execPath },
          timeout: 480_000,
          maxBuffer: 16 * 1024 * 1024,
        },
        (err, stdout, stderr) =>
          resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, output: stdout + stderr }),
      );
    });
    expect(code, output).toBe(0);
    const summary = /^(\d+) passed(?:, [^\n]*)? in /m.exec(output);
    expect(summary, output).not.toBeNull();
    expect(Number(summary![1])).toBeGreaterThanOrEqual(21);
    expect(output).not.toMatch(/\d+ (failed|skipped|error)/);
    expect(processesMentioning('skillflow-pytest-')).toEqual([]);
  }, 500_000);
});
