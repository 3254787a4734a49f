import { describe, expect, it } from 'vitest';
import type { Store } from '../store/db.js';
import type { TemporalClient } from '../temporal/client.js';
import { OwnerQuotas, RUN_COUNT_REUSE_MS } from './owner-quotas.js';

/** A Temporal client whose visibility count answers `open` and records each query. */
function visibility(open: { n: number }) {
  const queries: string[] = [];
  const temporal = {
    client: {
      workflow: {
        count: (query: string) => {
          queries.push(query);
          return Promise.resolve({ count: open.n });
        },
      },
    },
  } as unknown as TemporalClient;
  return { temporal, queries };
}

const quotas = (temporal: TemporalClient, runningRuns: number, now: () => number) =>
  new OwnerQuotas(
    temporal,
    {} as Store,
    { definitions: 10, schedules: 10, runningRuns, queuedTasks: 10 },
    now,
  );

describe('the running-runs cap at run start', () => {
  it('counts in visibility once a second while below half the cap, afresh at half and beyond', async () => {
    const open = { n: 10 };
    const { temporal, queries } = visibility(open);
    let now = 0;
    const q = quotas(temporal, 100, () => now);
    // 10 running: the first start counts, the next 39 add to that count (10 + 40 = 50).
    for (let i = 0; i < 40; i++) await q.checkRunStart('owner_a');
    expect(queries).toEqual([
      'OwnerId = "owner_a" AND TaskKind = "workflow_run" AND ExecutionStatus = "Running"',
    ]);
    // At half the cap every start counts afresh.
    open.n = 50;
    await q.checkRunStart('owner_a');
    await q.checkRunStart('owner_a');
    expect(queries.length).toBe(3);
    // A second later a count is read again.
    open.n = 10;
    now += RUN_COUNT_REUSE_MS;
    await q.checkRunStart('owner_a');
    expect(queries.length).toBe(4);
    await q.checkRunStart('owner_a');
    expect(queries.length).toBe(4);
    // Another owner has its own count.
    await q.checkRunStart('owner_b');
    expect(queries.at(-1)).toBe(
      'OwnerId = "owner_b" AND TaskKind = "workflow_run" AND ExecutionStatus = "Running"',
    );
  });

  it('refuses at the cap with the counted figure, whatever was remembered', async () => {
    const open = { n: 0 };
    const { temporal, queries } = visibility(open);
    const q = quotas(temporal, 2, () => 0);
    await q.checkRunStart('owner_a');
    open.n = 1;
    await q.checkRunStart('owner_a');
    open.n = 2;
    await expect(q.checkRunStart('owner_a')).rejects.toMatchObject({
      code: 'OWNER_LIMIT_REACHED',
      status: 429,
      details: { limit: 'running_runs', max: 2 },
    });
    // A cap of 2: half is 1, so every start counted.
    expect(queries.length).toBe(3);
  });

  it('two API processes far below the cap let through at most the cap within one second', async () => {
    const open = { n: 0 };
    const a = visibility(open);
    const b = visibility(open);
    const qa = quotas(a.temporal, 10, () => 0);
    const qb = quotas(b.temporal, 10, () => 0);
    // Visibility does not see any of the starts yet (the worst case): each process lets
    // through starts until its own sum reaches half the cap, then counts afresh and still sees 0.
    let let_through = 0;
    for (let i = 0; i < 5; i++) {
      await qa.checkRunStart('owner_a');
      await qb.checkRunStart('owner_a');
      let_through += 2;
    }
    expect(let_through).toBe(10);
    expect([a.queries.length, b.queries.length]).toEqual([1, 1]);
    // The next start in each process counts afresh.
    open.n = 10;
    await expect(qa.checkRunStart('owner_a')).rejects.toMatchObject({ code: 'OWNER_LIMIT_REACHED' });
    await expect(qb.checkRunStart('owner_a')).rejects.toMatchObject({ code: 'OWNER_LIMIT_REACHED' });
  });
});
