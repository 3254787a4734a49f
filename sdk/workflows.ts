/**
 * Workflow definitions, runs, schedules and webhook hooks (/v1/workflows). A definition is sent as the text
 * the caller wrote (YAML as `application/yaml`, JSON as `application/json`) so the API's
 * diagnostics point at the caller's own lines and columns.
 */
import type {
  BackfillStarted,
  RotatedHook,
  RunList,
  RunStarted,
  ScheduleState,
  ValidationResult,
  WorkflowDefinition,
  WorkflowList,
} from './generated.js';
import { idempotencyHeaders, seg, type RequestSpec, type Transport } from './http.js';
import type { DefinitionFormat, DefinitionSource } from './types.js';

/** `client.workflows.schedule`. */
export interface ScheduleClient {
  pause(id: string): Promise<ScheduleState>;
  resume(id: string): Promise<ScheduleState>;
  /** Starts one run now, outside the schedule. */
  trigger(id: string): Promise<ScheduleState>;
  /**
   * Runs the schedule's ticks between `start` and `end` (both included; RFC 3339 instants or
   * Dates, in the past, at most 1,000 ticks, else a 422 `INVALID_BACKFILL_WINDOW`), with
   * `overlap` or the schedule's own overlap policy. Needs the scopes a trigger needs.
   */
  backfill(id: string, window: BackfillWindow): Promise<BackfillStarted>;
}

/** The window of `client.workflows.schedule.backfill`. */
export interface BackfillWindow {
  start: string | Date;
  end: string | Date;
  overlap?: BackfillStarted['overlap'];
}

/** `client.workflows.hook`: a webhook trigger's hook. */
export interface HookClient {
  /**
   * A new `signing_secret`, returned this once. The old secret stops being accepted at once, or
   * after `keepPreviousSeconds` (at most 86400). Needs the scopes saving the definition needs; a
   * definition without a webhook trigger throws a 409 `CONFLICT`.
   */
  rotate(id: string, options?: { keepPreviousSeconds?: number }): Promise<RotatedHook>;
}

/** Options of `client.workflows.run`. */
export interface RunOptions {
  /** Sent as `Idempotency-Key`: 1-255 printable ASCII characters. */
  idempotencyKey?: string;
}

/** `client.workflows`. */
export interface WorkflowsClient {
  /** Saves a new definition (version 1). Invalid definitions throw INVALID_DEFINITION with `details.diagnostics`. */
  create(source: DefinitionSource, options?: { format?: DefinitionFormat }): Promise<WorkflowDefinition>;
  /** Compiles without saving: `{ valid, diagnostics, steps }`. */
  validate(source: DefinitionSource, options?: { format?: DefinitionFormat }): Promise<ValidationResult>;
  list(): Promise<WorkflowList['workflows']>;
  get(id: string): Promise<WorkflowDefinition>;
  /** Saves a new version (an identical source keeps the current version). */
  update(
    id: string,
    source: DefinitionSource,
    options?: { format?: DefinitionFormat },
  ): Promise<WorkflowDefinition>;
  delete(id: string): Promise<void>;
  /**
   * Starts a run with trigger inputs; poll the returned `task_id` with `client.tasks`. With
   * `idempotencyKey` (sent as `Idempotency-Key`), a repeat with the same key and inputs within
   * 24 hours returns the first run's `task_id` and starts nothing.
   */
  run(id: string, inputs?: Record<string, unknown>, options?: RunOptions): Promise<RunStarted>;
  /** Run history, newest first. */
  runs(id: string): Promise<RunList['runs']>;
  schedule: ScheduleClient;
  hook: HookClient;
}

/** Detects the format of a text source: JSON when it starts with `{`, else YAML. */
export function detectSourceFormat(text: string): DefinitionFormat {
  return text.trimStart().startsWith('{') ? 'json' : 'yaml';
}

function sourceBody(source: DefinitionSource, format?: DefinitionFormat): RequestSpec['text'] {
  if (typeof source !== 'string') return { body: JSON.stringify(source), contentType: 'application/json' };
  const fmt = format ?? detectSourceFormat(source);
  return { body: source, contentType: fmt === 'json' ? 'application/json' : 'application/yaml' };
}

const instant = (t: string | Date) => (typeof t === 'string' ? t : t.toISOString());

/** Creates `client.workflows`. */
export function createWorkflowsClient(http: Transport): WorkflowsClient {
  const wf = (id: string) => `/v1/workflows/${seg(id)}`;
  const scheduleOp = (op: 'pause' | 'resume' | 'trigger') => async (id: string) =>
    (await http.send<ScheduleState>({ method: 'POST', path: `${wf(id)}/schedule/${op}` })).body;
  return {
    create: async (source, options = {}) =>
      (
        await http.send<WorkflowDefinition>({
          method: 'POST',
          path: '/v1/workflows',
          text: sourceBody(source, options.format),
        })
      ).body,
    validate: async (source, options = {}) =>
      (
        await http.send<ValidationResult>({
          method: 'POST',
          path: '/v1/workflows/validate',
          text: sourceBody(source, options.format),
        })
      ).body,
    list: async () =>
      (await http.send<WorkflowList>({ method: 'GET', path: '/v1/workflows' })).body.workflows,
    get: async (id) => (await http.send<WorkflowDefinition>({ method: 'GET', path: wf(id) })).body,
    update: async (id, source, options = {}) =>
      (
        await http.send<WorkflowDefinition>({
          method: 'PUT',
          path: wf(id),
          text: sourceBody(source, options.format),
        })
      ).body,
    async delete(id) {
      await http.send<null>({ method: 'DELETE', path: wf(id) });
    },
    run: async (id, inputs = {}, options = {}) =>
      (
        await http.send<RunStarted>({
          method: 'POST',
          path: `${wf(id)}/runs`,
          json: { inputs },
          headers: idempotencyHeaders(options.idempotencyKey),
        })
      ).body,
    runs: async (id) => (await http.send<RunList>({ method: 'GET', path: `${wf(id)}/runs` })).body.runs,
    schedule: {
      pause: scheduleOp('pause'),
      resume: scheduleOp('resume'),
      trigger: scheduleOp('trigger'),
      backfill: async (id, window) =>
        (
          await http.send<BackfillStarted>({
            method: 'POST',
            path: `${wf(id)}/schedule/backfill`,
            json: {
              start: instant(window.start),
              end: instant(window.end),
              ...(window.overlap ? { overlap: window.overlap } : {}),
            },
          })
        ).body,
    },
    hook: {
      rotate: async (id, options = {}) =>
        (
          await http.send<RotatedHook>({
            method: 'POST',
            path: `${wf(id)}/hook/rotate`,
            json: { keep_previous_seconds: options.keepPreviousSeconds ?? 0 },
          })
        ).body,
    },
  };
}
