import { describe, expect, it } from 'vitest';
import { untilReachable } from './start-wait.js';

const down = (): Error => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
const isDown = (err: unknown): boolean => (err as { code?: string } | undefined)?.code === 'ECONNREFUSED';

describe('untilReachable', () => {
  it('tries again while the service cannot be reached, 250 ms doubling, and returns the first success', async () => {
    let tries = 0;
    const waits: number[] = [];
    const value = await untilReachable(() => (++tries < 4 ? Promise.reject(down()) : Promise.resolve('up')), {
      service: 'the store',
      waitMs: 10_000,
      unreachable: isDown,
      onWaiting: (_e, ms) => waits.push(ms),
    });
    expect(value).toBe('up');
    expect(waits).toEqual([250, 500, 1000]);
  });

  it('looks at the error a start step wrapped', async () => {
    let tries = 0;
    await expect(
      untilReachable(
        () =>
          ++tries < 2
            ? Promise.reject(new Error('store migration failed', { cause: down() }))
            : Promise.resolve(tries),
        { service: 'the store', waitMs: 10_000, unreachable: isDown },
      ),
    ).resolves.toBe(2);
  });

  it('gives up after its bound, naming the service and the bound', async () => {
    const started = Date.now();
    await expect(
      untilReachable(() => Promise.reject(down()), {
        service: 'the store',
        waitMs: 600,
        unreachable: isDown,
      }),
    ).rejects.toThrow(/^the store could not be reached within 1 s \(ECONNREFUSED\)$/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
  });

  it('does not wait on any other error, nor with a bound of 0', async () => {
    let tries = 0;
    const wrong = new Error('syntax error');
    await expect(
      untilReachable(
        () => {
          tries++;
          return Promise.reject(wrong);
        },
        { service: 'the store', waitMs: 10_000, unreachable: isDown },
      ),
    ).rejects.toBe(wrong);
    expect(tries).toBe(1);
    const refused = down();
    await expect(
      untilReachable(() => Promise.reject(refused), { service: 'the store', waitMs: 0, unreachable: isDown }),
    ).rejects.toBe(refused);
  });
});
