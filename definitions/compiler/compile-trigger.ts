/** Compiles `start_when`: the manual trigger with its run inputs, or a schedule. */
import { CronExpressionParser } from 'cron-parser';
import type { Diagnostic } from '../diagnostics.js';
import { LIMITS } from '../limits.js';
import { matchesRunInputType } from '../runtime/run-inputs.js';
import type { JsonValue, PlanTrigger, RunInputSpec } from '../runtime/plan.js';
import { type StartWhen, startWhenSchema } from '../schema/definition-schema.js';
import { runInputShape, type SchemaShape } from '../schema/schema-path.js';
import { issuesToDiagnostics } from '../schema/zod-issues.js';
import type { DocPath, SourceMap } from '../source/source-map.js';
import { parseDuration } from './duration.js';
import { isReservedName, NAME_PATTERN } from './names.js';

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
  const { manual, schedule } = parsed.data;
  const hasManual = manual !== undefined;
  if (hasManual === (schedule !== undefined)) {
    const message = hasManual
      ? 'Use either manual or schedule, not both.'
      : 'Add manual: {} or schedule: {...}.';
    diagnostics.push(
      map.diagnostic('INVALID_TRIGGER', `start_when must hold exactly one trigger. ${message}`, BASE),
    );
    return { trigger: undefined, inputs, scheduled: schedule !== undefined };
  }
  if (schedule) return { trigger: compileSchedule(schedule, map, diagnostics), inputs, scheduled: true };
  const specs: Record<string, RunInputSpec> = {};
  const declared = Object.entries(manual?.inputs ?? {});
  if (declared.length > LIMITS.maxRunInputs) {
    const message = `${declared.length} run inputs declared; the limit is ${LIMITS.maxRunInputs}.`;
    diagnostics.push(map.diagnostic('TOO_LARGE', message, [...BASE, 'manual', 'inputs'], { key: true }));
  }
  for (const [name, input] of declared) {
    const path = [...BASE, 'manual', 'inputs', name];
    if (!NAME_PATTERN.test(name) || isReservedName(name)) {
      const message = `Run input name "${name}" must match ${NAME_PATTERN.source} and not be reserved.`;
      diagnostics.push(map.diagnostic('INVALID_INPUT_NAME', message, path, { key: true }));
      continue;
    }
    const spec: RunInputSpec = { type: input.type, required: input.required ?? false };
    if (input.default !== undefined) {
      if (!matchesRunInputType(input.type, input.default)) {
        const message = `The default of "${name}" must be of type ${input.type}.`;
        diagnostics.push(map.diagnostic('INVALID_DEFAULT', message, [...path, 'default']));
      }
      spec.default = input.default as JsonValue;
    }
    if (input.description !== undefined) spec.description = input.description;
    specs[name] = spec;
    inputs.set(name, runInputShape(input.type));
  }
  return { trigger: { type: 'manual', inputs: specs }, inputs, scheduled: false };
}

function compileSchedule(
  schedule: NonNullable<StartWhen['schedule']>,
  map: SourceMap,
  diagnostics: Diagnostic[],
): PlanTrigger | undefined {
  const path = [...BASE, 'schedule'];
  const timezone = schedule.timezone.trim();
  let ok = true;
  if (!isTimeZone(timezone)) {
    const message = `"${schedule.timezone}" is not an IANA timezone (e.g. Europe/Berlin, America/New_York, UTC).`;
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
        map.diagnostic('INVALID_CRON', `Invalid cron "${schedule.cron}": ${problem}`, [...path, 'cron']),
      );
    return ok && !problem ? { type: 'schedule', cron, timezone } : undefined;
  }
  const every = (schedule.every ?? '').trim();
  const everyMs = parseDuration(every);
  if (everyMs === undefined || everyMs < LIMITS.minEveryMs || everyMs > LIMITS.maxEveryMs) {
    const message = `Invalid every "${every}": use a duration such as 15m, 1h or 1d, from 1m to 366d.`;
    diagnostics.push(map.diagnostic('INVALID_DURATION', message, [...path, 'every']));
    return undefined;
  }
  return ok ? { type: 'schedule', every, everyMs, timezone } : undefined;
}

function cronProblem(cron: string, timezone: string): string | undefined {
  const fields = cron.split(' ').length;
  if (fields !== 5) return `expected 5 fields (minute hour day-of-month month day-of-week), found ${fields}.`;
  try {
    CronExpressionParser.parse(cron, { tz: timezone });
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
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
