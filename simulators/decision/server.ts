/**
 * The decision model stand-in: `POST` (any path) with `{ model, state, questions }` answers
 * `{ answers }` (wire notes "Decision helper"). Requires `Authorization: Bearer <key>`.
 * Relevance questions read `state.relevance_criteria.text` and `state.candidates.items[<id>]`;
 * screening questions read `state.content.items[<id>]`, and a request for a `safeguard-…` model
 * answers them as the safeguard model (scoring.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  choiceAnswer,
  noulAnswer,
  overlapScore,
  safeguardAnswer,
  SAFEGUARD_MODEL,
  scoreAnswer,
} from './scoring.js';
import { RequestLog } from '../request-log.js';

/**
 * `status` answers `status` (429, 5xx); `missing_answer` drops the last question's answer;
 * `out_of_range` scores 7; `slow` waits `ms`; `timeout` never answers within any decision
 * timeout (it waits `ms`, default 60 s, and the client gives up first).
 */
export type DecisionFaultType =
  'status' | 'malformed' | 'missing_answer' | 'out_of_range' | 'low_confidence' | 'slow' | 'timeout';

export interface DecisionFault {
  type: DecisionFaultType;
  /** For `status`; default 500. */
  status?: number;
  /** For `slow`; default 2000. */
  ms?: number;
  /** Apply to this many requests, then clear. Unlimited when absent. */
  times?: number;
  /** Apply only to requests for this model id (e.g. the safeguard model). Any model when absent. */
  model?: string;
}

export interface DecisionRequestRecord {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed body, or the raw text when it was not JSON. */
  body: unknown;
  status?: number;
}

export interface DecisionSimulatorOptions {
  /** The accepted bearer key. Default `sim-decision-key`. */
  apiKey?: string;
  port?: number;
  host?: string;
}

export interface DecisionSimulator {
  url: string;
  apiKey: string;
  close(): Promise<void>;
  setFault(fault: DecisionFault | undefined): void;
  requests(): DecisionRequestRecord[];
  reset(): void;
}

interface Question {
  type?: string;
  options?: string[];
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** The decide step's question text (`state.question.text`), or ''. */
function questionText(state: Record<string, unknown>): string {
  const text = (state.question as { text?: unknown } | undefined)?.text;
  return typeof text === 'string' ? text : '';
}

function answerAll(body: {
  model?: string;
  state?: Record<string, unknown>;
  questions?: Record<string, Question>;
}): Record<string, unknown> {
  const state = body.state ?? {};
  // The screening's pieces (`state.content.items`), each classified on its own.
  const pieces = ((state.content as { items?: unknown } | undefined)?.items ?? {}) as Record<string, unknown>;
  const safeguard = SAFEGUARD_MODEL.test(body.model ?? '');
  const criteria = (state.relevance_criteria as { text?: unknown } | undefined)?.text;
  const items = ((state.candidates as { items?: unknown } | undefined)?.items ?? {}) as Record<
    string,
    unknown
  >;
  const stateText = JSON.stringify(state);
  const answers: Record<string, unknown> = {};
  for (const [id, q] of Object.entries(body.questions ?? {})) {
    const text = items[id];
    if (q.type === 'score' && typeof text === 'string')
      answers[id] = scoreAnswer(overlapScore(typeof criteria === 'string' ? criteria : '', text));
    // A score question over the whole state (the decide step): its question against the state.
    else if (q.type === 'score')
      answers[id] = scoreAnswer(
        overlapScore(questionText(state), JSON.stringify({ ...state, question: null })),
      );
    else if (q.type === 'choice') answers[id] = choiceAnswer(q.options ?? [], stateText);
    // A per-item noul (screening) reads its own item; otherwise the whole state.
    else if (q.type === 'noul')
      answers[id] =
        typeof text === 'string'
          ? noulAnswer(text)
          : typeof pieces[id] === 'string'
            ? safeguard
              ? safeguardAnswer(pieces[id])
              : noulAnswer(pieces[id])
            : noulAnswer(JSON.stringify({ ...state, question: null }), questionText(state) || undefined);
  }
  return answers;
}

/** Starts the decision simulator on 127.0.0.1 (port 0 = any free port). */
export async function startDecisionSimulator(
  opts: DecisionSimulatorOptions = {},
): Promise<DecisionSimulator> {
  const apiKey = opts.apiKey ?? 'sim-decision-key';
  let fault: DecisionFault | undefined;
  const log = new RequestLog<DecisionRequestRecord>();

  const takeFault = (model: string): DecisionFault | undefined => {
    const f = fault;
    if (f?.model !== undefined && f.model !== model) return undefined;
    if (f?.times !== undefined && --f.times <= 0) fault = undefined;
    return f;
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    req.setEncoding('utf8');
    for await (const chunk of req) raw += String(chunk);
    const url = new URL(req.url ?? '/', 'http://sim');
    if (url.pathname === '/__sim/faults' && req.method === 'POST') {
      fault = raw ? (JSON.parse(raw) as { fault?: DecisionFault }).fault : undefined;
      return send(res, 200, { fault: fault ?? null });
    }
    if (url.pathname === '/__sim/requests') return send(res, 200, log.entries());
    let body: unknown = raw;
    try {
      body = JSON.parse(raw);
    } catch {
      /* recorded as text */
    }
    const rec: DecisionRequestRecord = { path: url.pathname, headers: { ...req.headers }, body };
    log.push(rec);
    res.once('finish', () => (rec.status = res.statusCode));
    if (req.method !== 'POST') return send(res, 405, { error: { message: 'POST only' } });
    if (req.headers.authorization !== `Bearer ${apiKey}`)
      return send(res, 401, { error: { message: 'invalid api key' } });
    const parsed = body as {
      model?: unknown;
      state?: Record<string, unknown>;
      questions?: Record<string, Question>;
    };
    if (
      typeof parsed !== 'object' ||
      parsed === null ||
      typeof parsed.model !== 'string' ||
      typeof parsed.questions !== 'object'
    ) {
      return send(res, 400, { error: { message: 'expected { model, state, questions }' } });
    }
    const f = takeFault(parsed.model);
    if (f?.type === 'slow') await sleep(f.ms ?? 2000);
    if (f?.type === 'timeout') await sleep(f.ms ?? 60_000);
    if (f?.type === 'status') return send(res, f.status ?? 500, { error: { message: 'simulated failure' } });
    if (f?.type === 'malformed') return send(res, 200, '{"answers":{"c0":{"score":');
    const answers = answerAll({ ...parsed, model: parsed.model });
    const ids = Object.keys(answers);
    if (f?.type === 'missing_answer' && ids.length > 0) delete answers[ids[ids.length - 1]!];
    if (f?.type === 'out_of_range' && ids[0]) answers[ids[0]] = { score: 7, confidence: 0.9 };
    if (f?.type === 'low_confidence')
      for (const id of ids) (answers[id] as { confidence?: number }).confidence = 0.1;
    send(res, 200, { answers });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, { error: { message: 'simulator error' } }));
  });
  await new Promise<void>((r) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', r));
  const { port, address } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/v1/decide`,
    apiKey,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
    setFault: (f) => {
      fault = f ? { ...f } : undefined;
    },
    requests: () => log.entries().map((r) => ({ ...r })),
    reset: () => {
      log.clear();
      fault = undefined;
    },
  };
}
