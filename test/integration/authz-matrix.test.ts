/**
 * The authorisation matrix on the real stack (`npm start` with a PostgreSQL store): every
 * operation of the served OpenAPI document, and the public routes it leaves out, × {no key, a
 * key without the scope, the right scope of another owner, the right scope of the owner}, with
 * the status and whole error body the table (test/helpers/authz-table.ts) states. The owned
 * objects are real and owner A's: definitions, runs, a long-running skill call with its task
 * and embed, a chat with a delivered message, a key, a workspace result, a team. An operation
 * the document gains without a table entry fails the first test, named.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../lib/store/db.js';
import {
  caller,
  createFixtures,
  Keys,
  OWNER_A,
  OWNER_B,
  type Call,
  type Fixtures,
} from '../helpers/authz-fixtures.js';
import {
  DOCUMENTED,
  IDENTITIES,
  OWNED_KINDS,
  PLANNED_KINDS,
  SCOPE_OF_OBJECT,
  UNDOCUMENTED,
  type Case,
  type Identity,
} from '../helpers/authz-table.js';
import { postgresAvailable, startTestPostgres, type TestPostgres } from '../helpers/postgres.js';
import { startStack, type RunningStack } from '../helpers/stack.js';

const HIGH = '100000000';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** `METHOD /path` of every operation in an OpenAPI document. */
function operations(doc: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => METHODS.includes(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    )
    .sort();
}

/** Document operations without a table entry, and table entries the document lacks. */
function coverage(documented: string[]): { missing: string[]; stale: string[] } {
  return {
    missing: documented.filter((op) => !(op in DOCUMENTED)),
    stale: Object.keys(DOCUMENTED).filter((op) => !documented.includes(op)),
  };
}

// The matrix runs its stack on PostgreSQL (two owners' keys written to the store): it runs wherever
// Debian's PostgreSQL is installed, and under CI=true always (.ci/run installs it), failing there
// rather than skipping if it is missing.
describe.runIf(process.env.CI === 'true' || postgresAvailable())('authorisation matrix', () => {
  let pg: TestPostgres;
  let stack: RunningStack;
  let store: Store;
  let call: Call;
  let keys: Keys;
  let fixtures: Fixtures;
  let documented: string[];

  beforeAll(async () => {
    pg = await startTestPostgres();
    stack = await startStack({
      timeoutMs: 240_000,
      env: {
        DATABASE_URL: pg.url,
        // The matrix sends a few hundred requests: limits are not what it tests.
        RATE_LIMIT_PRO_PER_MINUTE: HIGH,
        ENCYCLOPEDIA_OWNER_PER_MINUTE: HIGH,
        ENCYCLOPEDIA_IP_PER_MINUTE: HIGH,
        // Owner A's chat gets a webhook on loopback; nothing is delivered to it.
        WEBHOOK_ALLOW_LOOPBACK: 'true',
      },
    });
    store = await openStore({ databaseUrl: pg.url });
    call = caller(stack.url);
    keys = new Keys(store);
    fixtures = await createFixtures(call, keys, store);
    const doc = await call('GET', '/v1/openapi.json', null);
    documented = operations(doc.json);
  }, 300_000);

  afterAll(async () => {
    await store?.close();
    await stack?.stop();
    pg?.stop();
  });

  it('has an entry for every operation of the document, and none for an operation it lacks', () => {
    const { missing, stale } = coverage(documented);
    expect(missing, `operations without an authorisation entry: ${missing.join(', ')}`).toEqual([]);
    expect(stale, `entries for operations the document lacks: ${stale.join(', ')}`).toEqual([]);
    // A route added to the document (an approval, say) is named until it gets an entry.
    const added = 'POST /v1/approvals/{approval_id}/approve';
    expect(coverage([...documented, added]).missing).toEqual([added]);
    const shown = Object.keys(UNDOCUMENTED).filter((op) => documented.includes(op));
    expect(shown, 'documented operations listed as undocumented').toEqual([]);
  });

  it('exercises every object kind, and each planned kind once its routes exist', () => {
    const kinds = new Set(Object.values(DOCUMENTED).flatMap((cases) => cases.map((c) => c.kind)));
    expect(OWNED_KINDS.filter((k) => !kinds.has(k))).toEqual([]);
    for (const [kind, path] of Object.entries(PLANNED_KINDS)) {
      const untested = documented.filter(
        (op) => path.test(op) && !DOCUMENTED[op]?.some((c) => c.kind === kind),
      );
      expect(untested, `${kind} operations without a case of kind ${kind}`).toEqual([]);
    }
  });

  it("answers another owner's key without the scope 404, where the scope depends on the object", async () => {
    const checked: string[] = [];
    for (const [op, cases] of Object.entries(DOCUMENTED)) {
      for (const c of cases.filter((x) => SCOPE_OF_OBJECT.includes(x.kind))) {
        const req = c.request(fixtures, 'other');
        const token = await keys.token(OWNER_B, c.wrong);
        const res = await call(op.split(' ')[0]!, req.url, token, req.body, req.contentType);
        expect([op, c.note, res.status, res.json]).toEqual([op, c.note, 404, c.expect.other.body]);
        checked.push(op);
      }
    }
    expect(checked).toHaveLength(8);
  });

  it('answers every operation × identity as the table says', async () => {
    const tokenFor = (c: Case, who: Identity) =>
      who === 'none'
        ? null
        : keys.token(who === 'other' ? OWNER_B : OWNER_A, who === 'unscoped' ? c.wrong : c.right);
    const actual: string[] = [];
    const expected: string[] = [];
    let cells = 0;
    for (const [op, cases] of Object.entries({ ...DOCUMENTED, ...UNDOCUMENTED })) {
      const method = op.split(' ')[0]!;
      for (const c of cases) {
        for (const who of IDENTITIES) {
          const want = c.expect[who];
          const req = c.request(fixtures, who);
          const res = await call(
            method,
            req.url,
            await tokenFor(c, who),
            req.body,
            req.contentType,
            req.headers,
          );
          const label = `${op}${c.note ? ` (${c.note})` : ''} [${c.kind}] as ${who}`;
          cells++;
          expected.push(`${label}: ${want.status} ${want.body ? JSON.stringify(want.body) : 'as checked'}`);
          let seen = want.body ? JSON.stringify(res.json) : 'as checked';
          if (!want.body && res.status === want.status) {
            try {
              want.check?.(res.json, fixtures);
            } catch (err) {
              seen = `check failed: ${(err as Error).message}`;
            }
          } else if (!want.body) seen = JSON.stringify(res.json).slice(0, 500);
          actual.push(`${label}: ${res.status} ${seen}`);
        }
      }
    }
    process.stdout.write(`authorisation matrix: ${cells} cells\n`);
    expect(actual).toEqual(expected);
    expect(cells).toBe(4 * Object.values({ ...DOCUMENTED, ...UNDOCUMENTED }).flat().length);
  }, 120_000);
});
