/**
 * What of a Temporal SDK log line may reach our logger. SDK lines carry failures (`error`,
 * `failure`) whose messages can hold user text, and some messages append an error's text after a
 * colon. Only allow-listed identifiers pass; an error is reduced to its type (a catalogue code or
 * an error class name), and a message is cut before its first `": "`.
 */

/** Metadata keys that hold identifiers and numbers only. */
const SAFE_KEYS = new Set([
  'sdkComponent',
  'target',
  'namespace',
  'taskQueue',
  'workflowId',
  'workflowType',
  'workflow_type',
  'runId',
  'run_id',
  'activityId',
  'activityType',
  'attempt',
  'isLocal',
  'durationMs',
  'event_id',
  'workflow_task_duration',
]);
const ERROR_KEYS = ['error', 'err', 'failure'];
const TYPE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** The error's catalogue code (ApplicationFailure type) or class name, if it looks like one. */
function errorType(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { type, name } = value as { type?: unknown; name?: unknown };
  const candidate = typeof type === 'string' && type ? type : name;
  return typeof candidate === 'string' && TYPE_NAME.test(candidate) ? candidate : undefined;
}

/** The message and metadata of an SDK log line with everything but identifiers removed. */
export function redactSdkLog(
  message: string,
  meta: Readonly<Record<string, unknown>> | undefined,
): { message: string; meta: Record<string, unknown> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(meta ?? {})) {
    if (!SAFE_KEYS.has(key)) continue;
    if (typeof value === 'number' || typeof value === 'boolean') out[key] = value;
    else if (typeof value === 'string' && value.length <= 200) out[key] = value;
  }
  for (const key of ERROR_KEYS) {
    const type = meta?.[key] === undefined ? undefined : errorType(meta[key]);
    if (meta?.[key] !== undefined) out.errorType = type ?? 'unknown';
  }
  const colon = message.indexOf(': ');
  return { message: colon >= 0 ? message.slice(0, colon) : message, meta: out };
}
