#!/usr/bin/env node
// Launcher of the skillflow CLI: runs the JavaScript build of cli/main.ts in dist/
// (scripts/build-cli.mjs), building it first when it is missing or older than any of its
// sources; without esbuild it runs the TypeScript sources through tsx.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const build = path.join(root, 'dist', 'skillflow-cli.mjs');

function fresh() {
  try {
    const built = statSync(build).mtimeMs;
    const inputs = JSON.parse(readFileSync(path.join(root, 'dist', 'skillflow-cli.inputs.json'), 'utf8'));
    return inputs.every((file) => statSync(path.join(root, file)).mtimeMs <= built);
  } catch {
    return false;
  }
}

let entry = pathToFileURL(build).href;
if (!fresh()) {
  try {
    await (await import('../scripts/build-cli.mjs')).buildCli();
  } catch (err) {
    // A read-only or partial install: say so once, and run the sources.
    process.stderr.write(
      `note: the CLI's JavaScript build could not be made (${err?.code ?? err?.name ?? 'error'}); running the TypeScript sources, which starts slower\n`,
    );
    const { register } = await import('tsx/esm/api');
    register();
    entry = pathToFileURL(path.join(root, 'cli', 'main.ts')).href;
  }
}
await import(entry);
