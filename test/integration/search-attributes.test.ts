/**
 * A Temporal database created before a custom search attribute existed: the dev server's flags
 * do not add it later, so the start adds what is missing (once; a second start adds nothing).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config.js';
import { provisionFromEnv } from '../../lib/temporal/cli.js';
import { ensureSearchAttributes } from '../../lib/temporal/ensure-search-attributes.js';
import { SEARCH_ATTRIBUTES } from '../../lib/temporal/search-attributes.js';
import { freePort } from '../helpers/ports.js';

describe('custom search attributes on an older database', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skillflow-sa-'));
  let stop: (() => void) | undefined;
  afterAll(() => {
    stop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds every missing one, and nothing the second time', async () => {
    const cli = await provisionFromEnv(PROJECT_ROOT);
    const port = await freePort();
    // A server started without any --search-attribute flag, as an older skillflow did for `Waiting`.
    const child = spawn(
      cli.path,
      [
        'server',
        'start-dev',
        '--db-filename',
        path.join(dir, 'old.sqlite'),
        '--ip',
        '127.0.0.1',
        '--port',
        String(port),
        '--headless',
        '--log-level',
        'error',
      ],
      { stdio: 'ignore' },
    );
    stop = () => child.kill('SIGTERM');
    let conn: Connection | undefined;
    for (let i = 0; i < 120 && !conn; i++) {
      try {
        conn = await Connection.connect({ address: `127.0.0.1:${port}`, connectTimeout: 1000 });
        await conn.workflowService.getSystemInfo({});
      } catch {
        conn = undefined;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    expect(conn).toBeDefined();
    try {
      expect((await ensureSearchAttributes(conn!, 'default')).sort()).toEqual(
        SEARCH_ATTRIBUTES.map((k) => k.name).sort(),
      );
      expect(await ensureSearchAttributes(conn!, 'default')).toEqual([]);
      const { customAttributes } = await conn!.operatorService.listSearchAttributes({ namespace: 'default' });
      // 7: INDEXED_VALUE_TYPE_KEYWORD_LIST; 2: INDEXED_VALUE_TYPE_KEYWORD.
      expect(customAttributes?.Waiting).toBe(7);
      expect(customAttributes?.FailedStep).toBe(2);
    } finally {
      await conn!.close();
    }
  }, 90_000);
});
