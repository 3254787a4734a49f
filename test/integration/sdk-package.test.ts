/**
 * The JS SDK as a package: `npm pack` in sdk/ builds it (ESM and type declarations), and a
 * project outside the repository installs the tarball, imports `@skillflow/sdk`, type-checks
 * against its declarations and talks to a real API over HTTP.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SDK = path.join(ROOT, 'sdk');
const npm = (args: string[], cwd: string): string =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 240_000 });

describe('the JS SDK package', () => {
  let work: string;
  let tarball: string;
  let packed: { files: { path: string }[]; name: string; version: string };
  let h: EngineHarness;
  let base: string;

  beforeAll(async () => {
    work = mkdtempSync(path.join(os.tmpdir(), 'skillflow-sdk-pack-'));
    [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', work], SDK)) as [typeof packed];
    tarball = path.join(work, `skillflow-sdk-${packed.version}.tgz`);
    h = await startEngine();
    await h.api.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.api.app.server.address() as AddressInfo).port}`;
  }, 300_000);
  afterAll(async () => {
    await h?.close();
    rmSync(work, { recursive: true, force: true });
    rmSync(path.join(SDK, 'dist'), { recursive: true, force: true });
  });

  it('packs the ESM build, its declarations and the README, and nothing else', () => {
    expect(packed.name).toBe('@skillflow/sdk');
    const files = packed.files.map((f) => f.path).sort();
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files).toContain('dist/generated.d.ts');
    expect(files).toContain('README.md');
    expect(files).toContain('package.json');
    // No sources, tests, generator or Python SDK.
    expect(files.filter((f) => !/^dist\/[a-z-]+\.(js|d\.ts)$/.test(f))).toEqual([
      'README.md',
      'package.json',
    ]);
  });

  it('installs into a project of its own, type-checks and calls the API', async () => {
    const project = path.join(work, 'project');
    execFileSync('mkdir', ['-p', project]);
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'sdk-user', private: true, type: 'module' }),
    );
    npm(['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], project);
    const manifest = JSON.parse(
      readFileSync(path.join(project, 'node_modules/@skillflow/sdk/package.json'), 'utf8'),
    ) as { version: string };
    expect(manifest.version).toBe(packed.version);

    // Types: a consumer written against the declarations compiles (and a misuse does not).
    writeFileSync(
      path.join(project, 'use.ts'),
      [
        "import { createClient, SkillflowApiError, KNOWN_SKILLS, type WorkflowList } from '@skillflow/sdk';",
        "const client = createClient({ baseUrl: 'http://127.0.0.1:1', token: 'sf_x' });",
        'const list: Promise<WorkflowList["workflows"]> = client.workflows.list();',
        'export { list, SkillflowApiError, KNOWN_SKILLS };',
        '',
      ].join('\n'),
    );
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files: ['use.ts'],
      }),
    );
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    // @types/node from the repository: the SDK's declarations name Node's own types.
    const typeRoots = path.join(ROOT, 'node_modules/@types');
    execFileSync(process.execPath, [tsc, '-p', project, '--typeRoots', typeRoots, '--types', 'node'], {
      cwd: project,
    });
    writeFileSync(
      path.join(project, 'misuse.ts'),
      "import { createClient } from '@skillflow/sdk';\ncreateClient({ token: 1 });\n",
    );
    let misuse = '';
    try {
      execFileSync(
        process.execPath,
        [
          tsc,
          '--noEmit',
          '--module',
          'NodeNext',
          '--moduleResolution',
          'NodeNext',
          '--strict',
          '--typeRoots',
          typeRoots,
          '--types',
          'node',
          'misuse.ts',
        ],
        {
          cwd: project,
          encoding: 'utf8',
        },
      );
    } catch (err) {
      misuse = String((err as { stdout?: string }).stdout);
    }
    expect(misuse).toMatch(/misuse\.ts\(2,/);

    // Runtime: the installed package against the real API.
    writeFileSync(
      path.join(project, 'call.mjs'),
      [
        "import { createClient, SkillflowApiError } from '@skillflow/sdk';",
        'const [base, token] = process.argv.slice(2);',
        'const listed = await createClient({ baseUrl: base, token }).workflows.list();',
        'let refused;',
        "try { await createClient({ baseUrl: base, token: 'sf_wrong' }).workflows.list(); }",
        'catch (err) { refused = err instanceof SkillflowApiError ? { status: err.status, code: err.code } : String(err); }',
        'console.log(JSON.stringify({ listed, refused }));',
      ].join('\n'),
    );
    // Not execFileSync: the API answers from this very process.
    const { stdout: out } = await promisify(execFile)(process.execPath, ['call.mjs', base, h.token], {
      cwd: project,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(JSON.parse(out)).toEqual({ listed: [], refused: { status: 401, code: 'UNAUTHENTICATED' } });
  });
});
