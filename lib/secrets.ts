/**
 * The secret store: one file per secret under SECRETS_DIR (Docker/Kubernetes style), with the
 * environment as a fallback (upper-cased name). Values never reach a client, a log or an error.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface SecretStore {
  /** The secret's value, or undefined when it is not configured. */
  get(name: string): string | undefined;
}

export function createSecretStore(secretsDir: string | undefined, env: NodeJS.ProcessEnv): SecretStore {
  return {
    get(name) {
      if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error('invalid secret name');
      if (secretsDir) {
        const file = path.join(secretsDir, name);
        if (existsSync(file)) {
          const value = readFileSync(file, 'utf8').trim();
          if (value) return value;
        }
      }
      const fromEnv = env[name.toUpperCase()];
      return fromEnv && fromEnv.trim() ? fromEnv : undefined;
    },
  };
}

/** A fixed store, for tests. */
export function staticSecrets(values: Record<string, string>): SecretStore {
  return { get: (name) => values[name] };
}
