/**
 * Spans for slow store queries: Kysely reports every query with its duration after it ran
 * ({@link storeQueryLogger}); one at least TRACE_STORE_QUERY_MIN_MS long, or one that failed,
 * becomes a CLIENT span back-dated to its start, named by its statement (`SELECT api_keys`):
 * the operation and first table only, never the SQL text or a parameter.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { LogEvent, OperationNode } from 'kysely';
import { activeTracing } from './index.js';

const OPERATIONS: Record<string, string> = {
  SelectQueryNode: 'SELECT',
  InsertQueryNode: 'INSERT',
  UpdateQueryNode: 'UPDATE',
  DeleteQueryNode: 'DELETE',
  MergeQueryNode: 'MERGE',
  RawNode: 'RAW',
};

/** The first table a node names (`from`, `into` or `table`), if any. */
function tableOf(node: OperationNode): string | undefined {
  const n = node as {
    from?: { froms?: readonly OperationNode[] };
    into?: OperationNode;
    table?: OperationNode;
    using?: OperationNode;
  };
  const first = n.into ?? n.table ?? n.from?.froms?.[0] ?? n.using;
  const t = first as { kind?: string; table?: { identifier?: { name?: unknown } } } | undefined;
  const name = t?.kind === 'TableNode' ? t.table?.identifier?.name : undefined;
  return typeof name === 'string' && /^[a-z_][a-z0-9_]{0,62}$/.test(name) ? name : undefined;
}

/** `SELECT api_keys`, `RAW`, …: what a query does to which table, nothing of its values. */
export function statementName(node: OperationNode): { operation: string; table: string | undefined } {
  return { operation: OPERATIONS[node.kind] ?? 'OTHER', table: tableOf(node) };
}

/** Kysely's `log` for the store while tracing is on; undefined (no logging at all) otherwise. */
export function storeQueryLogger(engine: 'pglite' | 'postgres'): ((event: LogEvent) => void) | undefined {
  const tracing = activeTracing();
  if (!tracing) return undefined;
  return (event) => {
    if (event.level === 'query' && event.queryDurationMillis < tracing.storeQueryMinMs) return;
    const { operation, table } = statementName(event.query.query);
    const end = Date.now();
    const span = tracing.tracer.startSpan(table ? `${operation} ${table}` : operation, {
      kind: SpanKind.CLIENT,
      startTime: end - event.queryDurationMillis,
      attributes: {
        'db.system': engine === 'pglite' ? 'pglite' : 'postgresql',
        'db.operation.name': operation,
        ...(table ? { 'db.collection.name': table } : {}),
      },
    });
    if (event.level === 'error') {
      const code = (event.error as { code?: unknown } | null)?.code;
      span.setAttribute(
        'error.type',
        typeof code === 'string' && /^[A-Z0-9]{5}$/.test(code) ? code : 'Error',
      );
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end(end);
  };
}
