/**
 * Every example marked `sh runnable`, `ts runnable` or `python runnable` in the README and docs/
 * runs against the service as `npm start` starts it, in document order, in one shell per
 * document (so a variable a block exports is there for the next), and prints each line the
 * document shows after it. The examples' `http://127.0.0.1:8080` is the test service's address,
 * `.data/` its data directory and `npx skillflow` this checkout's CLI; a `ts` block runs with
 * Node (through tsx) importing `@skillflow/sdk` from this checkout's sdk/, a `python` block with
 * the Python SDK installed by `pip install ./sdk/python` (.tools/python-sdk-venv).
 */
import { execFile } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  symlinkSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config.js';
import { provisionPythonSdkVenv } from '../../sdk/codegen/python-venv.js';
import { runnableBlocks, shownLinePattern, type RunnableBlock } from '../helpers/doc-blocks.js';
import { startStack, type RunningStack } from '../helpers/stack.js';

const DOCUMENTS = [
  'README.md',
  ...readdirSync(path.join(PROJECT_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const withBlocks = DOCUMENTS.map((doc) => ({
  doc,
  blocks: runnableBlocks(readFileSync(path.join(PROJECT_ROOT, doc), 'utf8')),
})).filter((d) => d.blocks.length > 0);

const MARK = '@@skillflow-doc-block@@';
/** tsx's ESM entry (its package's `.` export), which `node --import tsx` loads. */
const TSX_LOADER = pathToFileURL(path.join(PROJECT_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/** The shell line that runs one block (a `ts` or `python` block from a file of its own). */
function blockCommand(b: RunnableBlock, i: number, cwd: string, url: string, python: string): string {
  const code = b.code.replaceAll('http://127.0.0.1:8080', url);
  if (b.lang === 'sh') return code;
  const file = path.join(cwd, `block-${i}.${b.lang === 'ts' ? 'mts' : 'py'}`);
  writeFileSync(file, code);
  return b.lang === 'ts'
    ? `"${process.execPath}" --import "${TSX_LOADER}" "${file}"`
    : `"${python}" "${file}"`;
}

/** Runs the blocks in one bash (`set -euo pipefail`); returns each block's stdout and the exit. */
function runBlocks(
  blocks: RunnableBlock[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  url: string,
  python: string,
): Promise<{ code: number; outputs: string[]; stderr: string }> {
  const script = [
    'set -euo pipefail',
    // On a line of its own even after output without a final newline.
    ...blocks.flatMap((b, i) => [`printf '\\n%s\\n' '${MARK} ${i}'`, blockCommand(b, i, cwd, url, python)]),
    `printf '\\n%s\\n' '${MARK} end'`,
  ].join('\n');
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', script],
      { cwd, env, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        const outputs = stdout.split(new RegExp(`^${MARK} .*$`, 'm')).slice(1);
        resolve({ code, outputs, stderr });
      },
    );
  });
}

describe('the runnable examples of the docs', () => {
  let stack: RunningStack;
  let work: string;
  let env: NodeJS.ProcessEnv;
  let python: string;

  beforeAll(async () => {
    const [started, venv] = await Promise.all([
      startStack(),
      provisionPythonSdkVenv({
        rootDir: PROJECT_ROOT,
        log: (m) => process.stderr.write(`docs-runnable: ${m}\n`),
      }),
    ]);
    stack = started;
    python = venv.python;
    work = mkdtempSync(path.join(os.tmpdir(), 'skillflow-doc-blocks-'));
    // `import … from '@skillflow/sdk'` in a `ts` block: this checkout's sdk/ sources.
    const sdk = path.join(work, 'node_modules', '@skillflow', 'sdk');
    mkdirSync(sdk, { recursive: true });
    writeFileSync(
      path.join(sdk, 'package.json'),
      JSON.stringify({ name: '@skillflow/sdk', type: 'module', exports: './index.js' }),
    );
    writeFileSync(
      path.join(sdk, 'index.js'),
      `export * from ${JSON.stringify(pathToFileURL(path.join(PROJECT_ROOT, 'sdk/index.ts')).href)};\n`,
    );
    // `npx skillflow` runs this checkout's CLI from the examples' working directory.
    const bin = path.join(work, 'bin');
    mkdirSync(bin);
    writeFileSync(
      path.join(bin, 'npx'),
      `#!/bin/sh\nif [ "$1" = skillflow ]; then shift; exec "${process.execPath}" "${path.join(PROJECT_ROOT, 'bin/skillflow.js')}" "$@"; fi\necho "only npx skillflow is available to the examples" >&2; exit 127\n`,
    );
    chmodSync(path.join(bin, 'npx'), 0o755);
    const clean = { ...process.env };
    delete clean.SKILLFLOW_API_KEY;
    env = {
      ...clean,
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      SKILLFLOW_URL: stack.url,
      DATA_DIR: stack.dataDir,
      // This device's chat key (`chats init`), kept out of the real home folder.
      SKILLFLOW_CHAT_KEY_FILE: path.join(work, 'chat-key.json'),
    };
  }, 500_000);
  afterAll(async () => {
    await stack?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('finds the README tour (a mistyped marker would drop its blocks silently)', () => {
    const readme = withBlocks.find((d) => d.doc === 'README.md');
    expect(readme?.blocks.length ?? 0).toBeGreaterThanOrEqual(5);
    expect(readme!.blocks.filter((b) => b.expected.length > 0).length).toBeGreaterThanOrEqual(5);
  });

  it.each(withBlocks)(
    '$doc: every runnable block succeeds and prints what the document shows',
    async ({ doc, blocks }) => {
      const cwd = mkdtempSync(path.join(work, 'run-'));
      // `.data/` of the examples (the development key): the test service's data directory.
      symlinkSync(stack.dataDir, path.join(cwd, '.data'));
      // The examples' `definitions/examples/…` files, as at the project's root.
      symlinkSync(path.join(PROJECT_ROOT, 'definitions'), path.join(cwd, 'definitions'));
      const { code, outputs, stderr } = await runBlocks(blocks, env, cwd, stack.url, python);
      // The last marker printed names the block that failed.
      const failed = blocks[outputs.length - 1];
      expect({
        code,
        failedBlockAtLine: code === 0 ? undefined : failed?.line,
        stderr: code === 0 ? '' : stderr,
      }).toEqual({
        code: 0,
        failedBlockAtLine: undefined,
        stderr: '',
      });
      blocks.forEach((block, i) => {
        const printed = outputs[i]!.split('\n');
        for (const shown of block.expected) {
          expect(
            printed.some((line) => shownLinePattern(shown).test(line)),
            `${doc}:${block.line}: no printed line matches "${shown}"; printed:\n${outputs[i]}`,
          ).toBe(true);
        }
      });
    },
  );
});
