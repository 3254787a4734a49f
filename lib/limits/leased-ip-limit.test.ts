/**
 * The icon SVG limit is one limit per address for every API replica: two limits objects built as
 * two processes build them, on one store, admit the limit together, never each. With leases of
 * several tokens: never more than the limit, and a refusal no earlier than
 * `limit − (lease − 1) × (replicas − 1)` served requests.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { storeEngines, useEngineStore } from '../../test/helpers/store-engines.js';
import { loadConfig } from '../config.js';
import { parseKeyring } from '../crypto/keyring.js';
import { SkillflowError, toEnvelope } from '../errors/skillflow-error.js';
import { createLimits } from './index.js';
import { defaultLease, LeasedIpLimit } from './leased-ip-limit.js';

const keyring = parseKeyring('test:' + Buffer.alloc(32, 7).toString('base64'), 'env');
const hashKey = new Uint8Array(32).fill(3);

/** 'ok', or the refusal's envelope. */
async function outcome(p: Promise<void>): Promise<unknown> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    if (err instanceof SkillflowError) return toEnvelope(err);
    throw err;
  }
}

describe('the default lease', () => {
  it('is a thirtieth of the limit, at least 1 token', () => {
    expect([1, 10, 59, 60, 120, 300, 3000, 1_000_000].map(defaultLease)).toEqual([
      1, 1, 1, 2, 4, 10, 100, 33_333,
    ]);
  });
});

describe.each(storeEngines())('the icon SVG limit across replicas on $name', (engine) => {
  const current = useEngineStore(engine);
  beforeEach(async () => {
    await current().db.deleteFrom('rate_limits').execute();
  });

  it('two processes on one store admit the limit together, then both refuse with the whole 429', async () => {
    const build = () =>
      createLimits({
        config: loadConfig({ LOG_LEVEL: 'silent', ICON_SVG_RATE_LIMIT_PER_MINUTE: '10' }),
        store: current(),
        keyring,
      });
    const [a, b] = [build(), build()];
    const results: unknown[] = [];
    for (let i = 0; i < 30; i++)
      results.push(await outcome((i % 2 === 0 ? a : b).charge('icon_svg_ip', 'addr-1')));
    expect(results.filter((r) => r === 'ok')).toHaveLength(10);
    const refused = results.at(-1) as { error: { details: { retry_after_seconds: number } } };
    expect(refused).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: `The icon SVG route allows 10 requests per minute from one address; retry in ${refused.error.details.retry_after_seconds} s.`,
        details: {
          limit: 10,
          window_seconds: 60,
          retry_after_seconds: refused.error.details.retry_after_seconds,
        },
      },
    });
    expect(refused.error.details.retry_after_seconds).toBeGreaterThan(50);
    // Another address has its own counter.
    expect(await outcome(b.charge('icon_svg_ip', 'addr-2'))).toBe('ok');
  });

  it('leases of 4: never over the limit; refused no earlier than limit − (lease − 1) × (replicas − 1)', async () => {
    const limit = (lease: number) =>
      new LeasedIpLimit(current(), {
        name: 'icon svg',
        label: 'The icon SVG route',
        perMinute: 10,
        hashKey,
        lease,
      });
    const [a, b] = [limit(4), limit(4)];
    // Alternating: every token is spent, exactly the limit is admitted.
    let admitted = 0;
    for (let i = 0; i < 30; i++)
      if ((await outcome((i % 2 === 0 ? a : b).consume('addr-1'))) === 'ok') admitted += 1;
    expect(admitted).toBe(10);
    // The worst case: one request on A (which keeps 3 tokens), the rest on B.
    await current().db.deleteFrom('rate_limits').execute();
    const [c, d] = [limit(4), limit(4)];
    expect(await outcome(c.consume('addr-1'))).toBe('ok');
    let servedByD = 0;
    while ((await outcome(d.consume('addr-1'))) === 'ok') servedByD += 1;
    expect(1 + servedByD).toBe(10 - (4 - 1) * (2 - 1));
    // A's leftover tokens are still its to spend: together still exactly the limit.
    let servedByC = 0;
    while ((await outcome(c.consume('addr-1'))) === 'ok') servedByC += 1;
    expect(1 + servedByD + servedByC).toBe(10);
  });

  it('concurrent requests of one process take one lease at a time and never pass the limit', async () => {
    const a = new LeasedIpLimit(current(), {
      name: 'icon svg',
      label: 'x',
      perMinute: 10,
      hashKey,
      lease: 3,
    });
    const b = new LeasedIpLimit(current(), {
      name: 'icon svg',
      label: 'x',
      perMinute: 10,
      hashKey,
      lease: 3,
    });
    const all = await Promise.all(
      Array.from({ length: 40 }, (_, i) => outcome((i % 2 === 0 ? a : b).consume('addr-9'))),
    );
    const ok = all.filter((r) => r === 'ok').length;
    expect(ok).toBeLessThanOrEqual(10);
    expect(ok).toBeGreaterThanOrEqual(10 - (3 - 1) * (2 - 1));
  });
});
