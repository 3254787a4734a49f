/**
 * docker-compose.yml (the container path) and `npm run cluster` (the local path) describe one
 * deployment: the same Temporal server version and config variables, databases, dynamic config,
 * namespace retention and search attributes, and the same skillflow variables for API and worker
 * processes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_SLICES, PROJECT_ROOT } from '../../lib/config.js';
import { SEARCH_ATTRIBUTES } from '../../lib/temporal/search-attributes.js';
import { CLUSTER_DB } from './cluster.js';
import { TEMPORAL_SERVER_VERSION } from './temporal-build.js';
import { temporalServerEnv } from './temporal-server.js';

interface Service {
  image?: string;
  environment?: Record<string, string | number>;
  command?: string[];
  volumes?: string[];
}
const compose = parse(readFileSync(path.join(PROJECT_ROOT, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, Service>;
  'x-skillflow-env': Record<string, string>;
};
const svc = (name: string): Service => {
  const s = compose.services[name];
  if (!s) throw new Error(`docker-compose.yml has no service ${name}`);
  return s;
};

describe('docker-compose.yml agrees with npm run cluster', () => {
  it('runs the Temporal server version the cluster builds, with its schema tool', () => {
    expect(svc('temporal').image).toBe(`temporalio/server:${TEMPORAL_SERVER_VERSION}`);
    expect(svc('temporal-schema').image).toBe(`temporalio/admin-tools:${TEMPORAL_SERVER_VERSION}`);
    expect(svc('temporal-setup').image).toBe(`temporalio/admin-tools:${TEMPORAL_SERVER_VERSION}`);
  });

  it('configures the server through the same template variables and dynamic config', () => {
    const local = temporalServerEnv(
      {
        host: 'h',
        port: 1,
        user: CLUSTER_DB.user,
        password: 'p',
        main: CLUSTER_DB.temporal,
        visibility: CLUSTER_DB.visibility,
      },
      20000,
    );
    const env = svc('temporal').environment!;
    // What defines the store is equal; addresses and ports are the topology's own.
    const same = [
      'DB',
      'POSTGRES_USER',
      'DBNAME',
      'VISIBILITY_DBNAME',
      'NUM_HISTORY_SHARDS',
      'TEMPORAL_ALLOW_NO_AUTH',
    ];
    for (const k of same) expect([k, String(env[k])]).toEqual([k, local[k]]);
    for (const k of ['POSTGRES_SEEDS', 'DB_PORT', 'POSTGRES_PWD', 'BIND_ON_IP', 'DYNAMIC_CONFIG_FILE_PATH'])
      expect(Object.keys(env)).toContain(k);
    const mounted = svc('temporal').volumes!.find((v) => v.endsWith(`:${env.DYNAMIC_CONFIG_FILE_PATH}:ro`));
    expect(mounted?.split(':')[0]).toBe('./deploy/temporal-dynamicconfig.yaml');
    expect(path.relative(PROJECT_ROOT, local.DYNAMIC_CONFIG_FILE_PATH!)).toBe(
      'deploy/temporal-dynamicconfig.yaml',
    );
  });

  it('creates the same databases and registers every search attribute with a 7-day retention', () => {
    const init = readFileSync(path.join(PROJECT_ROOT, 'deploy/postgres-init.sql'), 'utf8');
    for (const db of [CLUSTER_DB.temporal, CLUSTER_DB.visibility, CLUSTER_DB.store])
      expect(init).toContain(`CREATE DATABASE ${db};`);
    const setup = svc('temporal-setup').command!.join(' ');
    expect(setup).toContain('--retention 7d');
    const types: Record<string, string> = { KEYWORD: 'Keyword', INT: 'Int', KEYWORD_LIST: 'KeywordList' };
    const listed = /for sa in ([^;]+);/.exec(setup)![1]!.trim().split(/\s+/);
    expect(listed.sort()).toEqual(SEARCH_ATTRIBUTES.map((k) => `${k.name}=${types[k.type]}`).sort());
  });

  it('gives API and worker processes the variables the cluster sets, all of them known to the config', () => {
    const known = new Set<string>(Object.values(CONFIG_SLICES).flat());
    const shared = compose['x-skillflow-env'];
    for (const k of [
      'NODE_ENV',
      'DATABASE_URL',
      'TEMPORAL_ADDRESS',
      'TEMPORAL_NAMESPACE',
      'SKILLFLOW_ENCRYPTION_KEY',
    ])
      expect(Object.keys(shared)).toContain(k);
    expect(shared.NODE_ENV).toBe('production');
    expect(Object.keys(shared).filter((k) => !known.has(k))).toEqual([]);
    expect([svc('api').environment!.RUN_API, svc('api').environment!.RUN_WORKER]).toEqual(['true', 'false']);
    expect([svc('worker').environment!.RUN_API, svc('worker').environment!.RUN_WORKER]).toEqual([
      'false',
      'true',
    ]);
    expect(shared.DATABASE_URL).toMatch(new RegExp(`/${CLUSTER_DB.store}$`));
  });
});
