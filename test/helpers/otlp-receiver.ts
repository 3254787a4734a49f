/**
 * An OTLP/HTTP trace receiver on loopback: a plain HTTP server that keeps every export request
 * (path, content type, raw body) and decodes JSON ones (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`)
 * into flat spans.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  contentType: string;
  body: Buffer;
}

type AnyValue = {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
};

/** One exported span, flattened: attributes as plain values, ids as hex. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  events: { name: string; attributes: Record<string, string | number | boolean> }[];
  status: { code?: number; message?: string };
  resource: Record<string, string | number | boolean>;
}

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  requests: ReceivedRequest[];
  /** Every span of every JSON request received so far. */
  spans(): ReceivedSpan[];
  close(): Promise<void>;
}

function value(v: AnyValue): string | number | boolean {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.doubleValue !== undefined) return v.doubleValue;
  return JSON.stringify(v);
}

function attrs(
  list: { key: string; value: AnyValue }[] | undefined,
): Record<string, string | number | boolean> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, value(a.value)]));
}

interface JsonExport {
  resourceSpans: {
    resource?: { attributes?: { key: string; value: AnyValue }[] };
    scopeSpans: {
      spans: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: { key: string; value: AnyValue }[];
        events?: { name: string; attributes?: { key: string; value: AnyValue }[] }[];
        status?: { code?: number; message?: string };
      }[];
    }[];
  }[];
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        path: req.url ?? '',
        contentType: req.headers['content-type'] ?? '',
        body: Buffer.concat(chunks),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    spans() {
      return requests
        .filter((r) => r.contentType.startsWith('application/json'))
        .flatMap((r) => (JSON.parse(r.body.toString('utf8')) as JsonExport).resourceSpans)
        .flatMap((rs) =>
          rs.scopeSpans.flatMap((ss) =>
            ss.spans.map((s) => ({
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || undefined,
              name: s.name,
              kind: s.kind,
              attributes: attrs(s.attributes),
              events: (s.events ?? []).map((e) => ({ name: e.name, attributes: attrs(e.attributes) })),
              status: s.status ?? {},
              resource: attrs(rs.resource?.attributes),
            })),
          ),
        );
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}
