import { describe, expect, it } from 'vitest';
import { CONFIG_SLICES, ConfigError, ConfigSchema, flattenConfig, loadConfig, withValues } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const c = loadConfig({}, '/srv/app');
    expect(c.api).toMatchObject({ PORT: 8080, HOST: '127.0.0.1' });
    expect(c.temporal).toMatchObject({
      TEMPORAL_NAMESPACE: 'default',
      TEMPORAL_TASK_QUEUE: 'skillflow',
      TEMPORAL_ADDRESS: undefined,
    });
    expect(c.store).toEqual({ DATABASE_URL: undefined, dataDir: '/srv/app/.data' });
    expect(c.apps.hosting).toEqual({ SHOP_URL: undefined, PROXY_URL: undefined });
    expect(c.process).toMatchObject({ RUN_WORKER: true, dataDir: '/srv/app/.data', rootDir: '/srv/app' });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ SHOP_URL: '  ', TEMPORAL_ADDRESS: '' }).apps.hosting.SHOP_URL).toBeUndefined();
  });

  it('fails at boot naming every bad variable, without echoing the value', () => {
    const bad = {
      PORT: '80x',
      SHOP_URL: 'ftp://shop',
      DATABASE_URL: 'mysql://u:hunter2@h/db',
      SKILLFLOW_ENCRYPTION_KEY: 'hunter2',
    };
    let err: unknown;
    try {
      loadConfig(bad);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const { problems, message } = err as ConfigError;
    expect(problems.map((p) => p.variable).sort()).toEqual([
      'DATABASE_URL',
      'PORT',
      'SHOP_URL',
      'SKILLFLOW_ENCRYPTION_KEY',
    ]);
    expect(message).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
    expect(message).toContain('SHOP_URL: must be an http(s) URL');
    expect(message).not.toContain('hunter2');
  });

  it('accepts a rotated keyring of several keys', () => {
    const k = Buffer.alloc(32, 1).toString('base64');
    expect(
      loadConfig({ SKILLFLOW_ENCRYPTION_KEY: `new:${k},old:${k}` }).security.SKILLFLOW_ENCRYPTION_KEY,
    ).toBe(`new:${k},old:${k}`);
  });

  describe('production', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (e) {
        return (e as ConfigError).problems;
      }
      return [];
    };

    it('refuses to boot without SKILLFLOW_ENCRYPTION_KEY', () => {
      expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
        { variable: 'SKILLFLOW_ENCRYPTION_KEY', message: 'is required in production' },
      ]);
    });

    it('never starts simulators: off by default, an error when asked for', () => {
      expect(
        loadConfig({ NODE_ENV: 'production', SKILLFLOW_ENCRYPTION_KEY: key }).process.START_SIMULATORS,
      ).toBe(false);
      expect(
        problemsOf({ NODE_ENV: 'production', SKILLFLOW_ENCRYPTION_KEY: key, START_SIMULATORS: 'true' }),
      ).toEqual([{ variable: 'START_SIMULATORS', message: 'simulators never run in production' }]);
      expect(loadConfig({ START_SIMULATORS: 'true' }).process.START_SIMULATORS).toBe(true);
    });
  });

  it('parses TRUST_PROXY as a list of addresses and CIDR ranges', () => {
    expect(loadConfig({}).api.TRUST_PROXY).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1 ,fd00::/8' }).api.TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      'fd00::/8',
    ]);
    for (const bad of ['10.0.0.0/33', 'proxy.example', '::1/129', '10.0.0.1/8/8'])
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: must be comma-separated IP/);
  });

  it('puts every variable in exactly one slice', () => {
    const sliced = Object.values(CONFIG_SLICES).flat();
    expect([...sliced].sort()).toEqual(Object.keys(ConfigSchema.shape).sort());
    expect(new Set(sliced).size).toBe(sliced.length);
  });

  it('replaces parsed values in their slices and flattens back to the variables', () => {
    const base = loadConfig({ SHOP_URL: 'http://127.0.0.1:1' }, '/srv/app');
    const next = withValues(base, { SHOP_URL: 'http://127.0.0.1:2', DECISION_MODEL: 'm2', PORT: 9 });
    expect(next.apps.hosting.SHOP_URL).toBe('http://127.0.0.1:2');
    expect(next.decision.DECISION_MODEL).toBe('m2');
    expect(next.api.PORT).toBe(9);
    expect(next.process.rootDir).toBe('/srv/app');
    expect(base.apps.hosting.SHOP_URL).toBe('http://127.0.0.1:1');
    expect(Object.keys(flattenConfig(next)).sort()).toEqual(Object.keys(ConfigSchema.shape).sort());
  });
});
