/**
 * Where the CLI talks to and as whom. Base URL: `--url`, else `SKILLFLOW_URL`, else
 * http://127.0.0.1:8080. Token: `--token`, else `SKILLFLOW_API_KEY`, else the development key
 * `npm start` writes to `<DATA_DIR>/dev-api-key` (DATA_DIR relative to the project root,
 * default `.data`). The token is never printed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createClient, type SkillflowClient } from '../sdk/index.js';

/** The default API origin (`npm start` on the default port). */
export const DEFAULT_URL = 'http://127.0.0.1:8080';

/** The project root (the CLI ships inside the repository). */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, '..');

/** Global options every command inherits. */
export interface GlobalOptions {
  url?: string;
  token?: string;
}

/** Where the token came from; shown in hints, never the token itself. */
export type TokenSource = 'flag' | 'env' | 'dev-key-file' | 'none';

/** A resolved connection. */
export interface CliContext {
  url: string;
  token: string | undefined;
  tokenSource: TokenSource;
  client: SkillflowClient;
}

/** The development key file `npm start` writes (DATA_DIR as the service resolves it). */
export function devKeyPath(env: NodeJS.ProcessEnv = process.env): string {
  const dataDir = env.DATA_DIR?.trim() ? env.DATA_DIR.trim() : '.data';
  return path.join(path.resolve(PROJECT_ROOT, dataDir), 'dev-api-key');
}

function readDevKey(env: NodeJS.ProcessEnv): string | undefined {
  try {
    const token = readFileSync(devKeyPath(env), 'utf8').trim();
    return token || undefined;
  } catch {
    return undefined;
  }
}

/** Resolves URL and token from flags, then the environment, then the dev key file. */
export function resolveContext(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): CliContext {
  const url = opts.url?.trim() || env.SKILLFLOW_URL?.trim() || DEFAULT_URL;
  let token: string | undefined;
  let tokenSource: TokenSource = 'none';
  if (opts.token?.trim()) {
    token = opts.token.trim();
    tokenSource = 'flag';
  } else if (env.SKILLFLOW_API_KEY?.trim()) {
    token = env.SKILLFLOW_API_KEY.trim();
    tokenSource = 'env';
  } else {
    token = readDevKey(env);
    if (token) tokenSource = 'dev-key-file';
  }
  return { url, token, tokenSource, client: createClient({ baseUrl: url, token }) };
}
