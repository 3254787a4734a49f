/**
 * Compiles the CLI (cli/main.ts and the project modules it imports) to JavaScript under dist/,
 * so `npx skillflow` starts without transpiling TypeScript. Commands load what they need when
 * they run (code splitting: one chunk per dynamic import). Packages stay in node_modules.
 * bin/skillflow.js runs this when the build is missing or older than any of its sources.
 * The files sit directly in dist/, one level below the project root as the sources are, so a
 * module that finds the root from its own location (`import.meta.dirname/..`) finds it there too.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
export const CLI_BUILD = path.join(ROOT, 'dist', 'skillflow-cli.mjs');
export const CLI_INPUTS = path.join(ROOT, 'dist', 'skillflow-cli.inputs.json');

export async function buildCli() {
  const { build } = await import('esbuild');
  // Built beside, then swapped in: a CLI started meanwhile never loads half a build.
  const staging = path.join(ROOT, 'dist', `.cli-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { 'skillflow-cli': 'cli/main.ts' },
    outdir: staging,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'skillflow-cli-[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    metafile: true,
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.startsWith('node_modules/'));
  const dist = path.dirname(CLI_BUILD);
  const files = Object.keys(result.metafile.outputs).map((f) => path.basename(f));
  // Chunks first (their names carry a content hash), the entry last.
  const entry = path.basename(CLI_BUILD);
  for (const file of [...files.filter((f) => f !== entry), entry])
    renameSync(path.join(staging, file), path.join(dist, file));
  writeFileSync(CLI_INPUTS, JSON.stringify(inputs));
  rmSync(staging, { recursive: true, force: true });
  // Chunks of earlier builds, once no CLI started before this build can still be loading them.
  const kept = new Set(files);
  for (const file of readdirSync(dist)) {
    const full = path.join(dist, file);
    if (
      /^skillflow-cli-.+\.mjs$/.test(file) &&
      !kept.has(file) &&
      Date.now() - statSync(full).mtimeMs > 10 * 60_000
    )
      rmSync(full, { force: true });
  }
}

if (process.argv[1] === import.meta.filename) await buildCli();
