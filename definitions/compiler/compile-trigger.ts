/**
 * Compiles `start_when`: the manual trigger with its run inputs, an event trigger (a name and the
 * run inputs its event data must fit), a webhook trigger (the run inputs its signed request body
 * must fit), or a schedule.
 */
import { CronExpressionParser } from 'cron-parser';
import type { Diagnostic } from '../diagnostics.js';
import { LIMITS } from '../limits.js';
import { matchesRunInputType } from '../runtime/run-inputs.js';
import type { JsonValue, PlanTrigger, RunInputSpec, SchedulePolicy } from '../runtime/plan.js';
import {
  EVENT_NAME_PATTERN,
  type RunInputSource,
  type StartWhen,
  startWhenSchema,
} from '../schema/definition-schema.js';
import { runInputShape, type SchemaShape } from '../schema/schema-path.js';
import { issuesToDiagnostics } from '../schema/zod-issues.js';
import type { DocPath, SourceMap } from '../source/source-map.js';
import { parseDuration } from './duration.js';
import { isReservedName, NAME_PATTERN } from '../runtime/names.js';

/** The compiled trigger and the run inputs references may use. */
export interface CompiledTrigger {
  trigger: PlanTrigger | undefined;
  inputs: Map<string, SchemaShape>;
  scheduled: boolean;
}

const BASE: DocPath = ['start_when'];

/** Validates and compiles `start_when`, appending diagnostics. */
export function compileTrigger(value: unknown, map: SourceMap, diagnostics: Diagnostic[]): CompiledTrigger {
  const inputs = new Map<string, SchemaShape>();
  const parsed = startWhenSchema.safeParse(value);
  if (!parsed.success) {
    diagnostics.push(...issuesToDiagnostics(parsed.error.issues, { map, base: BASE, value }));
    const scheduled = typeof value === 'object' && value !== null && Object.hasOwn(value, 'schedule');
    return { trigger: undefined, inputs, scheduled };
  }
  const { manual, schedule, event, webhook } = parsed.data;
  const given = [manual, schedule, event, webhook].filter((t) => t !== undefined).length;
  if (given !== 1) {
    const message =
      given > 1
        ? 'Use one of manual, schedule, event and webhook.'
        : 'Add manual: {}, schedule: {...}, event: {...} or webhook: {}.';
    diagnostics.push(
      map.diagnostic('INVALID_TRIGGER', `start_when must hold exactly one trigger. ${message}`, BASE),
    );
    return { trigger: undefined, inputs, scheduled: schedule !== undefined };
  }
  if (schedule) return { trigger: compileSchedule(schedule, map, diagnostics), inputs, scheduled: true };
  if (event) {
    const path = [...BASE, 'event'];
    const specs = compileInputSpecs(event.inputs ?? {}, [...path, 'inputs'], map, diagnostics, inputs);
    if (!EVENT_NAME_PATTERN.test(event.name)) {
      diagnostics.push(map.diagnostic('INVALID_EVENT_NAME', EVENT_NAME_MESSAGE, [...path, 'name']));
      return { trigger: undefined, inputs, scheduled: false };
    }
    return { trigger: { type: 'event', name: event.name, inputs: specs }, inputs, scheduled: false };
  }
  if (webhook !== undefined) {
    const path = [...BASE, 'webhook', 'inputs'];
    const specs = compileInputSpecs(webhook?.inputs ?? {}, path, map, diagnostics, inputs);
    return { trigger: { type: 'webhook', inputs: specs }, inputs, scheduled: false };
  }
  const specs = compileInputSpecs(
    manual?.inputs ?? {},
    [...BASE, 'manual', 'inputs'],
    map,
    diagnostics,
    inputs,
  );
  return { trigger: { type: 'manual', inputs: specs }, inputs, scheduled: false };
}

/** What an event name must look like (a trigger's and a wait_for_event step's). */
export const EVENT_NAME_MESSAGE = `An event name must match ${EVENT_NAME_PATTERN.source}, such as order.paid.`;

/**
 * Declared typed fields (a manual trigger's run inputs, an approval's payload): at most
 * `LIMITS.maxRunInputs`, names of the input-name form, defaults of their type. `shapes` receives
 * each field's shape, for references.
 */
export function compileInputSpecs(
  source: Readonly<Record<string, RunInputSource>>,
  path: DocPath,
  map: SourceMap,
  diagnostics: Diagnostic[],
  shapes: Map<string, SchemaShape>,
  noun: 'run input' | 'payload field' = 'run input',
): Record<string, RunInputSpec> {
  const specs: Record<string, RunInputSpec> = {};
  const declared = Object.entries(source);
  if (declared.length > LIMITS.maxRunInputs) {
    const message = `${declared.length} ${noun}s declared; the limit is ${LIMITS.maxRunInputs}.`;
    diagnostics.push(map.diagnostic('TOO_LARGE', message, path, { key: true }));
  }
  for (const [name, input] of declared) {
    const at = [...path, name];
    if (!NAME_PATTERN.test(name) || isReservedName(name)) {
      const message = `A ${noun} name must match ${NAME_PATTERN.source} and not be reserved.`;
      diagnostics.push(map.diagnostic('INVALID_INPUT_NAME', message, at, { key: true }));
      continue;
    }
    const spec: RunInputSpec = { type: input.type, required: input.required ?? false };
    if (input.default !== undefined) {
      if (!matchesRunInputType(input.type, input.default)) {
        const message = `The default must be of type ${input.type}.`;
        diagnostics.push(map.diagnostic('INVALID_DEFAULT', message, [...at, 'default']));
      }
      spec.default = input.default as JsonValue;
    }
    if (input.description !== undefined) spec.description = input.description;
    specs[name] = spec;
    shapes.set(name, runInputShape(input.type));
  }
  return specs;
}

function compileSchedule(
  schedule: NonNullable<StartWhen['schedule']>,
  map: SourceMap,
  diagnostics: Diagnostic[],
): PlanTrigger | undefined {
  const path = [...BASE, 'schedule'];
  const timezone = schedule.timezone.trim();
  const policy = compileSchedulePolicy(schedule, path, map, diagnostics);
  let ok = policy !== undefined;
  if (!isTimeZone(timezone)) {
    const message = 'The timezone is not an IANA timezone name (e.g. Europe/Berlin, America/New_York, UTC).';
    diagnostics.push(map.diagnostic('INVALID_TIMEZONE', message, [...path, 'timezone']));
    ok = false;
  }
  if ((schedule.cron === undefined) === (schedule.every === undefined)) {
    diagnostics.push(
      map.diagnostic('INVALID_SCHEDULE', 'schedule must hold exactly one of cron and every.', path),
    );
    return undefined;
  }
  if (schedule.cron !== undefined) {
    const cron = schedule.cron.trim().split(/\s+/).join(' ');
    const problem = cronProblem(cron, ok ? timezone : 'UTC');
    if (problem)
      diagnostics.push(
        map.diagnostic('INVALID_CRON', `Invalid cron expression: ${problem}`, [...path, 'cron']),
      );
    return ok && !problem ? { type: 'schedule', cron, timezone, ...policy } : undefined;
  }
  const every = (schedule.every ?? '').trim();
  const everyMs = parseDuration(every);
  if (everyMs === undefined || everyMs < LIMITS.minEveryMs || everyMs > LIMITS.maxEveryMs) {
    const message = `Invalid every: use a duration such as 15m, 1h or 1d, from 1m to 366d.`;
    diagnostics.push(map.diagnostic('INVALID_DURATION', message, [...path, 'every']));
    return undefined;
  }
  return ok ? { type: 'schedule', every, everyMs, timezone, ...policy } : undefined;
}

/**
 * A schedule's `overlap` and `catchup_window`, each only when written (absent: the defaults, as
 * in older plans); undefined when the catch-up window is invalid.
 */
function compileSchedulePolicy(
  schedule: NonNullable<StartWhen['schedule']>,
  path: DocPath,
  map: SourceMap,
  diagnostics: Diagnostic[],
): SchedulePolicy | undefined {
  const policy: SchedulePolicy = {};
  if (schedule.overlap !== undefined) policy.overlap = schedule.overlap;
  if (schedule.catchup_window === undefined) return policy;
  const ms = parseDuration(schedule.catchup_window);
  if (ms === undefined || ms < LIMITS.minCatchupWindowMs || ms > LIMITS.maxCatchupWindowMs) {
    const message = 'Invalid catchup_window: use a duration such as 30s, 5m or 1h, from 10s to 7d.';
    diagnostics.push(map.diagnostic('INVALID_DURATION', message, [...path, 'catchup_window']));
    return undefined;
  }
  policy.catchupWindowMs = ms;
  return policy;
}

/** The five cron fields, with what each accepts (cron-parser's errors echo the value instead). */
const CRON_FIELDS = [
  ['minute', '0-59'],
  ['hour', '0-23'],
  ['day-of-month', '1-31'],
  ['month', '1-12 or JAN-DEC'],
  ['day-of-week', '0-7 or SUN-SAT'],
] as const;

function parsesAsCron(cron: string, timezone: string): boolean {
  try {
    CronExpressionParser.parse(cron, { tz: timezone });
    return true;
  } catch {
    return false;
  }
}

/** What is wrong with a normalised cron expression, in words that never quote it. */
function cronProblem(cron: string, timezone: string): string | undefined {
  const fields = cron.split(' ');
  if (fields.length !== 5)
    return `expected 5 fields (minute hour day-of-month month day-of-week), found ${fields.length}.`;
  if (parsesAsCron(cron, timezone)) return undefined;
  // Find the first field that fails on its own, with every other field a wildcard.
  const bad = CRON_FIELDS.findIndex(
    (_, i) => !parsesAsCron(fields.map((f, j) => (j === i ? f : '*')).join(' '), timezone),
  );
  const field = CRON_FIELDS[bad];
  if (!field) return 'the fields are valid one by one but not together.';
  return `the ${field[0]} field is malformed or out of range; it takes ${field[1]}, with *, lists (a,b), ranges (a-b) and steps (*/n).`;
}

let zones: Set<string> | undefined;

/**
 * An IANA zone: `UTC`, a name from `Intl.supportedValuesOf('timeZone')`, or an Area/Location
 * alias (e.g. `US/Eastern`) that `Intl.DateTimeFormat` accepts. Offsets and lower-case
 * spellings are rejected because the schedule server resolves names case-sensitively.
 */
export function isTimeZone(name: string): boolean {
  zones ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (name === 'UTC' || zones.has(name)) return true;
  if (!/^[A-Z][A-Za-z_]*(?:\/[A-Za-z0-9_+-]+)+$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
