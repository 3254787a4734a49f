/**
 * The start banner says what the process runs: the whole service keeps its banner, an API-only
 * process says where it listens, a worker-only process names its task queue, namespace and
 * Temporal server and shows no address of an API (nothing listens there).
 */
import { describe, expect, it } from 'vitest';
import { startBanner, type BannerFacts } from './banner.js';

const facts: BannerFacts = {
  runApi: true,
  runWorker: true,
  apiBase: 'http://127.0.0.1:3000',
  listen: '0.0.0.0:3000',
  webBuilt: true,
  temporalAddress: 'temporal:7233',
  namespace: 'prod',
  taskQueue: 'skillflow',
  uiUrl: undefined,
  data: 'PostgreSQL via DATABASE_URL',
  devKey: undefined,
};

describe('startBanner', () => {
  it('keeps the banner of the whole service (npm start)', () => {
    expect(
      startBanner({
        ...facts,
        uiUrl: 'http://127.0.0.1:8233',
        data: '.data',
        devKey: { token: 'sf_dev', file: '.data/dev-api-key' },
        signInCode: 'sic_once',
      }),
    ).toBe(
      [
        '',
        'skillflow is running:',
        '  Workspace     http://127.0.0.1:3000/  (web workspace; sign in with the API key below)',
        '  Sign in       http://127.0.0.1:3000/#sign-in/sic_once  (signs the workspace in; works once, soon after start)',
        '  API           http://127.0.0.1:3000/v1',
        '  OpenAPI docs  http://127.0.0.1:3000/v1/docs  (document: http://127.0.0.1:3000/v1/openapi.json)',
        '  Health        http://127.0.0.1:3000/v1/health',
        '  Temporal UI   http://127.0.0.1:8233',
        '  Temporal      temporal:7233 (namespace prod)',
        '  Data          .data',
        '  API key       sf_dev',
        '                (development admin key, kept in .data/dev-api-key; the CLI uses it by default)',
        'Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
  });

  it('an API-only process says where it listens and that no worker runs here', () => {
    expect(startBanner({ ...facts, runWorker: false, webBuilt: false })).toBe(
      [
        '',
        'skillflow API is running (no worker in this process):',
        '  Listening     0.0.0.0:3000',
        '  Workspace     http://127.0.0.1:3000/  (not built: run npm run web:build, then restart)',
        '  API           http://127.0.0.1:3000/v1',
        '  OpenAPI docs  http://127.0.0.1:3000/v1/docs  (document: http://127.0.0.1:3000/v1/openapi.json)',
        '  Health        http://127.0.0.1:3000/v1/health',
        '  Temporal      temporal:7233 (namespace prod)',
        '  Data          PostgreSQL via DATABASE_URL',
        'Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
  });

  it('a worker-only process says it is a worker and shows no API address', () => {
    expect(
      startBanner({ ...facts, runApi: false, devKey: { token: 'sf_dev', file: '.data/dev-api-key' } }),
    ).toBe(
      [
        '',
        'skillflow worker is running (no API in this process; nothing listens):',
        '  Task queue    skillflow',
        '  Temporal      temporal:7233 (namespace prod)',
        '  Data          PostgreSQL via DATABASE_URL',
        'Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
  });
});
