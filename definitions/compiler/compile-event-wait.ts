/**
 * `wait_for_event: { name, match?, timeout, on_timeout? }`: the event name of the trigger's form,
 * at most `LIMITS.maxEventMatchFields` match fields named like run inputs, each a template rendered
 * to the text the event's data field must equal, and a timeout from 1m to 30d.
 */
import { LIMITS } from '../limits.js';
import type { EventWaitPlanStep, TemplateNode } from '../runtime/plan.js';
import { isReservedName, NAME_PATTERN } from '../runtime/names.js';
import { EVENT_NAME_PATTERN, type EventWaitSource } from '../schema/definition-schema.js';
import type { DocPath } from '../source/source-map.js';
import { compileTemplate } from './compile-template.js';
import { EVENT_NAME_MESSAGE } from './compile-trigger.js';
import { parseDuration } from './duration.js';
import type { ReferenceScope } from './reference-checker.js';

export function compileEventWait(
  source: EventWaitSource,
  path: DocPath,
  scope: ReferenceScope,
): Pick<EventWaitPlanStep, 'name' | 'match' | 'timeoutMs' | 'onTimeout'> | undefined {
  const report = (code: Parameters<ReferenceScope['map']['diagnostic']>[0], message: string, at: DocPath) =>
    scope.diagnostics.push(scope.map.diagnostic(code, message, at));
  let ok = true;
  if (!EVENT_NAME_PATTERN.test(source.name)) {
    report('INVALID_EVENT_NAME', EVENT_NAME_MESSAGE, [...path, 'name']);
    ok = false;
  }
  const fields = Object.entries(source.match ?? {});
  if (fields.length > LIMITS.maxEventMatchFields) {
    const message = `${fields.length} match fields; the limit is ${LIMITS.maxEventMatchFields}.`;
    scope.diagnostics.push(scope.map.diagnostic('TOO_LARGE', message, [...path, 'match'], { key: true }));
    ok = false;
  }
  const match: Record<string, TemplateNode[]> = {};
  for (const [field, template] of fields) {
    const at = [...path, 'match', field];
    if (!NAME_PATTERN.test(field) || isReservedName(field)) {
      const message = `A match field names an event data field: it must match ${NAME_PATTERN.source} and not be reserved.`;
      scope.diagnostics.push(scope.map.diagnostic('INVALID_VALUE', message, at, { key: true }));
      ok = false;
      continue;
    }
    match[field] = compileTemplate(template, scope, { path: at, offset: 0 });
  }
  const ms = parseDuration(source.timeout);
  if (ms === undefined || ms < LIMITS.minEventTimeoutMs || ms > LIMITS.maxEventTimeoutMs) {
    report('INVALID_DURATION', 'An event wait timeout is a duration from 1m to 30d, such as 7d.', [
      ...path,
      'timeout',
    ]);
    ok = false;
  }
  return ok
    ? { name: source.name, match, timeoutMs: ms!, onTimeout: source.on_timeout ?? 'fail' }
    : undefined;
}
