/** Compiles steps: identity and action checks first (for all steps), then each step's body. */
import { z } from 'zod';
import type { SkillCatalog, SkillCatalogEntry } from '../catalog.js';
import type { Diagnostic } from '../diagnostics.js';
import { LIMITS } from '../limits.js';
import type { PlanStep } from '../runtime/plan.js';
import { type StepSource, stepSchema } from '../schema/definition-schema.js';
import type { SchemaShape } from '../schema/schema-path.js';
import { issuesToDiagnostics } from '../schema/zod-issues.js';
import type { DocPath, SourceMap } from '../source/source-map.js';
import { checkSkillInput, compileInput } from './compile-input.js';
import { checkEncyclopediaReferences } from './encyclopedia-references.js';
import { compileTemplate } from './compile-template.js';
import { compileDecide, decideOutputShape } from './compile-decide.js';
import { parseCondition } from './condition-parser.js';
import { parseDuration } from './duration.js';
import { compileFail, compileRetry, compileWait } from './compile-flow.js';
import { isReservedName, NAME_PATTERN } from '../runtime/names.js';
import { checkReference, type ReferenceScope, type StepSymbol } from './reference-checker.js';

/** Chat and fail steps expose no output fields. */
const NO_OUTPUT: SchemaShape = [z.strictObject({})];

/** A wait step's output: the instant it waited until and how long it slept. */
const WAIT_OUTPUT: SchemaShape = [z.object({ until: z.string(), waited_ms: z.number().int().nonnegative() })];

/** The actions a step may hold, exactly one each. */
const ACTIONS = ['use_app_skill', 'send_chat_message', 'decide', 'wait', 'fail'] as const;

/** The fields that only steps calling an activity take, with what they configure. */
const ACTIVITY_FIELDS = ['timeout', 'retry'] as const;

/** A step that passed the shape check, with its skill when it has one. */
export interface StepEntry {
  index: number;
  path: DocPath;
  source: StepSource;
  skill?: SkillCatalogEntry;
}

/** Validates every step's shape, id and action, and builds the symbol table of step ids. */
export function collectSteps(
  steps: readonly unknown[],
  context: { map: SourceMap; diagnostics: Diagnostic[]; catalog: SkillCatalog; scheduled: boolean },
): { entries: StepEntry[]; symbols: Map<string, StepSymbol> } {
  const { map, diagnostics, catalog } = context;
  const entries: StepEntry[] = [];
  const symbols = new Map<string, StepSymbol>();
  steps.forEach((raw, index) => {
    const path: DocPath = ['steps', index];
    const parsed = stepSchema.safeParse(raw);
    if (!parsed.success) {
      diagnostics.push(...issuesToDiagnostics(parsed.error.issues, { map, base: path, value: raw }));
      return;
    }
    const source = parsed.data;
    const entry: StepEntry = { index, path, source };
    let output: SchemaShape = 'any';
    if (!NAME_PATTERN.test(source.id) || isReservedName(source.id)) {
      const message = `A step id must match ${NAME_PATTERN.source} and not be constructor or prototype.`;
      diagnostics.push(map.diagnostic('INVALID_STEP_ID', message, [...path, 'id']));
    }
    const actions = ACTIONS.filter((a) => source[a] !== undefined);
    if (actions.length !== 1) {
      const code = actions.length === 0 ? 'MISSING_ACTION' : 'MULTIPLE_ACTIONS';
      diagnostics.push(
        map.diagnostic(
          code,
          'A step needs exactly one of use_app_skill, send_chat_message, decide, wait and fail.',
          path,
        ),
      );
    } else {
      checkFieldsOfAction(source, path, map, diagnostics);
    }
    if (source.use_app_skill !== undefined) {
      entry.skill = catalog.get(source.use_app_skill);
      if (!entry.skill) {
        const known = catalog.list();
        const hint = known.length > 0 && known.length <= 20 ? ` Known skills: ${known.join(', ')}.` : '';
        diagnostics.push(
          map.diagnostic('UNKNOWN_SKILL', `Unknown skill.${hint}`, [...path, 'use_app_skill']),
        );
      } else {
        output = [entry.skill.workflowOutput];
        if (context.scheduled && !entry.skill.unattended) {
          const message =
            'This skill may not run unattended, so it cannot be used in a scheduled definition.';
          diagnostics.push(map.diagnostic('SKILL_NOT_UNATTENDED', message, [...path, 'use_app_skill']));
        }
      }
    } else if (source.send_chat_message !== undefined || source.fail !== undefined) {
      output = NO_OUTPUT;
    } else if (source.decide !== undefined) {
      output = decideOutputShape(source.decide);
    } else if (source.wait !== undefined) {
      output = WAIT_OUTPUT;
    }
    const first = symbols.get(source.id);
    if (first) {
      const message = `The step id is already used by steps[${first.index}]; step ids must be unique.`;
      diagnostics.push(map.diagnostic('DUPLICATE_STEP_ID', message, [...path, 'id']));
    } else {
      symbols.set(source.id, { index, output });
    }
    entries.push(entry);
  });
  return { entries, symbols };
}

/**
 * Reports fields the step's action does not take: `input` outside skill steps; `timeout` and
 * `retry` on steps that call no activity (wait, fail); `continue_on_error` on a fail step.
 */
function checkFieldsOfAction(
  source: StepSource,
  path: DocPath,
  map: SourceMap,
  diagnostics: Diagnostic[],
): void {
  const unknown = (field: string, message: string) =>
    diagnostics.push(map.diagnostic('UNKNOWN_FIELD', message, [...path, field], { key: true }));
  if (source.input !== undefined && source.use_app_skill === undefined)
    unknown('input', 'input belongs to use_app_skill steps only.');
  if (source.wait === undefined && source.fail === undefined) return;
  for (const field of ACTIVITY_FIELDS) {
    if (source[field] !== undefined)
      unknown(field, `${field} belongs to steps that call a skill, send a message or decide.`);
  }
  if (source.fail !== undefined && source.continue_on_error !== undefined) {
    const message = 'A fail step always fails; continue_on_error does not apply to it.';
    diagnostics.push(map.diagnostic('INVALID_VALUE', message, [...path, 'continue_on_error']));
  }
}

/** Compiles one step's condition, timeout, retry and action. */
export function compileStep(entry: StepEntry, scope: ReferenceScope): PlanStep | undefined {
  const { source, path } = entry;
  const base = { id: source.id, continueOnError: source.continue_on_error ?? false };
  const condition = source.if === undefined ? undefined : compileCondition(source.if, [...path, 'if'], scope);
  if (source.wait !== undefined) {
    const wait = compileWait(source.wait, [...path, 'wait'], scope);
    return wait && { ...base, kind: 'wait', ...wait, ...(condition && { if: condition }) };
  }
  if (source.fail !== undefined) {
    const fail = compileFail(source.fail, [...path, 'fail'], scope);
    return fail && { ...base, kind: 'fail', ...fail, ...(condition && { if: condition }) };
  }
  const maxTimeoutMs =
    entry.skill?.maxTimeoutMs ?? (source.decide ? LIMITS.decideMaxTimeoutMs : LIMITS.chatMaxTimeoutMs);
  const timeoutMs =
    source.timeout === undefined
      ? undefined
      : compileTimeout(source.timeout, [...path, 'timeout'], maxTimeoutMs, scope);
  const maxRetry = entry.skill?.maxRetry ?? (source.decide ? LIMITS.decideMaxRetry : LIMITS.chatMaxRetry);
  const retry = source.retry && compileRetry(source.retry, [...path, 'retry'], maxRetry, scope);
  const extras = {
    ...(condition && { if: condition }),
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(retry && { retry }),
  };
  if (source.use_app_skill !== undefined) {
    const inputPath = [...path, 'input'];
    const value = source.input ?? {};
    const { template, references } = compileInput(value, inputPath, scope);
    if (entry.skill) checkSkillInput(entry.skill.input, value, inputPath, references, scope);
    const skill = source.use_app_skill;
    return { ...base, kind: 'skill', skill, activity: skill, input: template, ...extras };
  }
  if (source.decide !== undefined) {
    const decide = compileDecide(source.decide, [...path, 'decide'], scope);
    return decide && { ...base, kind: 'decide', ...decide, ...extras };
  }
  const chat = source.send_chat_message;
  if (!chat) return undefined;
  const chatPath = [...path, 'send_chat_message'];
  const template = (text: string, key: string) =>
    compileTemplate(text, scope, { path: [...chatPath, key], offset: 0 });
  checkEncyclopediaReferences(chat.message, scope, [...chatPath, 'message']);
  return {
    ...base,
    kind: 'chat',
    title: template(chat.title, 'title'),
    message: template(chat.message, 'message'),
    ...(chat.chat_id !== undefined && { chatId: template(chat.chat_id, 'chat_id') }),
    ...extras,
  };
}

function compileCondition(text: string, path: DocPath, scope: ReferenceScope): PlanStep['if'] {
  if (text.length > LIMITS.maxConditionChars) {
    const message = `The condition has ${text.length} characters; the limit is ${LIMITS.maxConditionChars}.`;
    scope.diagnostics.push(scope.map.diagnostic('TOO_LARGE', message, path));
    return undefined;
  }
  const parsed = parseCondition(text);
  if (!parsed.ok) {
    scope.diagnostics.push(
      scope.map.diagnostic('CONDITION_SYNTAX', parsed.message, path, { offset: parsed.offset }),
    );
    return undefined;
  }
  for (const { ref, offset } of parsed.refs) checkReference(scope, ref, { path, offset });
  return parsed.node;
}

function compileTimeout(
  text: string,
  path: DocPath,
  maxMs: number,
  scope: ReferenceScope,
): number | undefined {
  const ms = parseDuration(text);
  if (ms === undefined || ms < LIMITS.minTimeoutMs) {
    const message = `Invalid timeout: use a duration such as 30s or 2m, at least 1s.`;
    scope.diagnostics.push(scope.map.diagnostic('INVALID_DURATION', message, path));
    return undefined;
  }
  if (ms > maxMs) {
    scope.diagnostics.push(
      scope.map.diagnostic(
        'TIMEOUT_TOO_LONG',
        `The timeout exceeds the maximum of ${maxMs / 1000}s for this step.`,
        path,
      ),
    );
    return undefined;
  }
  return ms;
}
