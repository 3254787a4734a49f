/**
 * The soak's traffic mix against one stack on loopback: quick skill calls (domain search, icon
 * search and SVGs, the encyclopedia), workflow runs polled to their end, polls of earlier
 * tasks, and the workspace's pages (`/`, its assets, the catalogue). Each operation records
 * every request it makes; none makes more than a fixed number.
 */
import type { Kind, Recorder, Status } from './recorder.js';

/** What every operation needs to know about the stack. */
export interface Target {
  url: string;
  token: string;
  /** The soak's workflow definition, created once before the drive. */
  definitionId: string;
  /** `/assets/...` paths named by the workspace's index.html. */
  assets: string[];
}

/** One kind of operation and its share of the mix. */
export interface Operation {
  name: string;
  weight: number;
  run(t: Target, rec: Recorder): Promise<void>;
}

/** Polls of one run: every POLL_MS, at most MAX_POLLS (a minute), then it counts as timed out. */
const POLL_MS = 250;
const MAX_POLLS = 240;
const REQUEST_TIMEOUT_MS = 30_000;
const FINAL = new Set(['completed', 'failed', 'cancelled']);
/** Finished tasks kept for later polls (the newest). */
const FINISHED_KEPT = 100;

interface Answer {
  status: Status;
  json: unknown;
}

/** One request, timed and recorded under `kind`. The body is read whole (and parsed when JSON). */
export async function call(
  t: Target,
  rec: Recorder,
  kind: Kind,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const started = performance.now();
  let answer: Answer;
  try {
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: {
        // The workspace's pages and the catalogue are public; everything else under /v1 is keyed.
        ...(path.startsWith('/v1/') && !path.startsWith('/v1/anonymous/')
          ? { authorization: `Bearer ${t.token}` }
          : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    const isJson = res.headers.get('content-type')?.includes('application/json') === true;
    answer = { status: res.status, json: isJson && text ? (JSON.parse(text) as unknown) : undefined };
  } catch {
    answer = { status: 'error', json: undefined };
  }
  rec.request(kind, answer.status, started, performance.now() - started);
  return answer;
}

/** Cycles through `items`, one per call: the mix is the same on every run of the soak. */
function cycle<T>(items: readonly T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length]!;
}

/** Starts a run of the soak definition and polls its task until a final state. */
async function runWorkflow(t: Target, rec: Recorder, finished: string[]): Promise<void> {
  const started = performance.now();
  const start = await call(t, rec, 'run', 'POST', `/v1/workflows/${t.definitionId}/runs`, { inputs: {} });
  const taskId = (start.json as { task_id?: string } | undefined)?.task_id;
  if (start.status !== 202 || !taskId) {
    rec.run('not started', performance.now(), performance.now() - started);
    return;
  }
  for (let i = 0; i < MAX_POLLS; i++) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const task = await call(t, rec, 'poll', 'GET', `/v1/tasks/${taskId}`);
    const status = (task.json as { status?: string } | undefined)?.status;
    if (status && FINAL.has(status)) {
      rec.run(status, performance.now(), performance.now() - started);
      finished.push(taskId);
      if (finished.length > FINISHED_KEPT) finished.shift();
      return;
    }
  }
  rec.run('timed out', performance.now(), performance.now() - started);
}

/**
 * The mix for one target: weights are shares of arrivals, not of requests (a run makes
 * several). Inputs cycle through small fixed lists, so the same drive sends the same requests.
 */
export function operations(target: Target): Operation[] {
  const domainWords = cycle(['cedar', 'lantern', 'harbor', 'maple', 'quartz', 'orbit', 'ember', 'tidal']);
  const iconWords = cycle(['home', 'arrow', 'user', 'mail', 'search', 'star', 'cloud', 'heart']);
  const iconSvgs = cycle(['mdi/home', 'mdi/account', 'tabler/star', 'lucide/cloud', 'mdi/email']);
  const articleQueries = cycle(['ada', 'alan turing', 'python', 'mercury', 'marie curie', 'earth']);
  const articleTitles = cycle(['Ada Lovelace', 'Alan Turing', 'Charles Babbage', 'Marie Curie', 'Earth']);
  const assets = cycle(target.assets);
  const finished: string[] = [];
  const nextFinished = cycle(finished);
  const send =
    (kind: Kind, method: string, path: () => string, body?: () => unknown) =>
    async (t: Target, rec: Recorder): Promise<void> => {
      await call(t, rec, kind, method, path(), body?.());
    };
  const quick = (method: string, path: () => string, body?: () => unknown) =>
    send('quick', method, path, body);
  return [
    {
      name: 'domain search, exact lookup',
      weight: 10,
      run: quick(
        'POST',
        () => '/v1/apps/hosting/skills/search_domains',
        () => ({
          requests: [{ query: `${domainWords()}.com` }],
        }),
      ),
    },
    {
      name: 'domain search, keyword in two TLDs',
      weight: 5,
      run: quick(
        'POST',
        () => '/v1/apps/hosting/skills/search_domains',
        () => ({
          requests: [{ query: domainWords(), tlds: ['com', 'io'], max_results: 3 }],
        }),
      ),
    },
    {
      name: 'icon search',
      weight: 8,
      run: quick(
        'POST',
        () => '/v1/apps/design/skills/search_icons',
        () => ({
          requests: [{ query: iconWords(), limit: 5 }],
        }),
      ),
    },
    {
      name: 'icon SVG',
      weight: 5,
      run: quick('GET', () => `/v1/apps/design/icons/upstream/${iconSvgs()}.svg`),
    },
    {
      name: 'encyclopedia title search',
      weight: 5,
      run: quick(
        'GET',
        () => `/v1/encyclopedia/search?query=${encodeURIComponent(articleQueries())}&language=en&limit=5`,
      ),
    },
    {
      name: 'encyclopedia summary',
      weight: 5,
      run: quick(
        'POST',
        () => '/v1/apps/encyclopedia/skills/get_summary',
        () => ({
          requests: [{ title: articleTitles(), language: 'en' }],
        }),
      ),
    },
    { name: 'workflow run, polled to its end', weight: 7, run: (t, rec) => runWorkflow(t, rec, finished) },
    {
      name: 'poll of a finished task',
      weight: 5,
      run: async (t, rec) => {
        // Until a run has finished there is nothing to re-read: start one instead.
        if (finished.length === 0) return runWorkflow(t, rec, finished);
        await call(t, rec, 'poll', 'GET', `/v1/tasks/${nextFinished()}`);
      },
    },
    { name: 'workspace page /', weight: 5, run: send('page', 'GET', () => '/') },
    { name: 'workspace asset', weight: 10, run: send('page', 'GET', assets) },
    { name: 'workspace catalogue', weight: 5, run: send('page', 'GET', () => '/v1/anonymous/apps') },
  ];
}

/**
 * A fixed interleaving of `ops` by weight (smooth weighted round robin): each operation
 * appears `weight` times per round, spread evenly, so any stretch of the drive has the mix.
 */
export function schedule(ops: Operation[]): () => Operation {
  const total = ops.reduce((s, o) => s + o.weight, 0);
  const current = ops.map(() => 0);
  const order: Operation[] = [];
  for (let n = 0; n < total; n++) {
    ops.forEach((o, i) => (current[i]! += o.weight));
    const best = current.indexOf(Math.max(...current));
    current[best]! -= total;
    order.push(ops[best]!);
  }
  return cycle(order);
}
