/**
 * Diagnostics: every problem in a definition, with a stable code, the path of the offending
 * node and its 1-based line and column. docs/workflow-language.md lists every code (a test checks).
 */
import { z } from 'zod';
import { LIMITS } from './limits.js';

/** Every diagnostic code, with the one-line meaning the docs expand on. */
export const DIAGNOSTIC_CODES = {
  TOO_LARGE:
    'A size limit is exceeded (source, steps, template, nesting depth, YAML tokens, run inputs), or more than 100 problems were found.',
  YAML_SYNTAX: 'The YAML does not parse.',
  JSON_SYNTAX: 'The JSON does not parse.',
  DUPLICATE_KEY: 'A key appears twice in one mapping.',
  ALIAS_NOT_ALLOWED: 'YAML anchors (&a) and aliases (*a) are not allowed.',
  TAG_NOT_ALLOWED: 'YAML tags (!!str, !custom) are not allowed.',
  UNKNOWN_FIELD: 'A field the language does not define.',
  MISSING_FIELD: 'A required field is absent.',
  INVALID_TYPE: 'A field has the wrong type.',
  INVALID_VALUE: 'A field has the right type but a value out of range or not allowed.',
  INVALID_TRIGGER: '`start_when` must hold exactly one of `manual`, `schedule` and `event`.',
  INVALID_EVENT_NAME: "An event name (a trigger's or a wait_for_event step's) is malformed.",
  INVALID_SCHEDULE: '`schedule` must hold exactly one of `cron` and `every`.',
  INVALID_CRON: 'The cron expression is not a valid 5-field expression.',
  INVALID_TIMEZONE: 'The timezone is not an IANA timezone name.',
  INVALID_DURATION:
    'A duration (`every`, `timeout`, `wait.duration`, `retry.initial_interval`) is malformed or out of range.',
  TIMEOUT_TOO_LONG: "A step's timeout exceeds the skill's policy maximum.",
  RETRY_OUT_OF_POLICY: "A step's `retry` asks for more attempts or a longer interval than its policy allows.",
  INVALID_INPUT_NAME: 'A run input name is malformed or reserved.',
  INVALID_DEFAULT: "A run input's default does not match its type.",
  INVALID_STEP_ID: 'A step id is malformed or reserved.',
  DUPLICATE_STEP_ID: 'Two steps share an id.',
  MISSING_ACTION:
    'A step has no action (`use_app_skill`, `send_chat_message`, `decide`, `wait`, `fail`, `for_each`, `parallel`, `use_workflow`, `wait_for_approval` or `wait_for_event`).',
  MULTIPLE_ACTIONS: 'A step has more than one action.',
  UNKNOWN_SKILL: 'The skill is not in the catalog.',
  SKILL_NOT_UNATTENDED: 'The skill may not run unattended, but the definition is scheduled.',
  INVALID_SKILL_INPUT: "A step's input does not match the skill's input schema.",
  INVALID_REFERENCE: 'A reference is malformed.',
  UNKNOWN_STEP: 'A reference names a step that does not exist.',
  FORWARD_REFERENCE:
    'A reference names the current step, a later one, a group around it or a step of its own parallel group.',
  STEP_NOT_IN_SCOPE:
    "A reference names a step inside a for_each (read the loop's output instead) or an on_error handler from outside it.",
  UNKNOWN_INPUT: 'A reference names a run input that is not declared.',
  UNKNOWN_WORKFLOW: 'A use_workflow step names no definition of yours (at its pinned version).',
  INVALID_WORKFLOW_INPUT: "A use_workflow step's inputs do not match the pinned version's declared inputs.",
  WORKFLOW_CYCLE: 'A pinned use_workflow step leads back to the version being saved.',
  APPROVAL_IN_LOOP: 'A wait_for_approval step is inside a for_each.',
  EVENT_WAIT_IN_LOOP: 'A wait_for_event step is inside a for_each.',
  WORKFLOW_VERSION_REQUIRED:
    'A scheduled definition runs other workflows only at pinned versions, all the way down.',
  UNKNOWN_OUTPUT_FIELD: "A reference names a field the step's output does not declare.",
  FORBIDDEN_PROPERTY: 'A reference touches `__proto__`, `constructor` or `prototype`.',
  NOT_A_LIST: '`#each` or `for_each.items` is given something that is not a list.',
  TEMPLATE_SYNTAX: 'A template does not parse.',
  TEMPLATE_NOT_ALLOWED: 'A template uses a construct outside the sandbox (partials, `../`, ...).',
  UNKNOWN_HELPER: 'A template calls a helper that does not exist.',
  CONDITION_SYNTAX: 'An `if` expression does not parse.',
  INVALID_ENCYCLOPEDIA_REFERENCE:
    'An `@encyclopedia:<language>:<percent_encoded_title>` reference is malformed.',
  INVALID_DECISION:
    'A `decide` step is inconsistent: `choice` without 2 distinct options, or a `fallback` that does not match its type.',
  TOO_MANY_REFERENCES: 'A chat message holds more than 3 `@encyclopedia:` references.',
} as const satisfies Record<string, string>;

/** A diagnostic code. */
export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/** One problem found in a definition, as the API answers it (`details.diagnostics[]`). */
export const DiagnosticSchema = z.object({
  code: z.enum(Object.keys(DIAGNOSTIC_CODES) as [DiagnosticCode, ...DiagnosticCode[]]),
  message: z.string(),
  path: z.string().describe('Path of the offending node, e.g. steps[0].input.requests[0].max_results.'),
  line: z.number().int().describe('1-based line.'),
  column: z.number().int().describe('1-based column.'),
  suggestions: z
    .array(z.string())
    .max(3)
    .optional()
    .describe(
      'For an unknown skill or step: the known names closest to it, closest first (a step id is never quoted in `message`).',
    ),
});

/** One problem found in a definition; `path` is '' for the root. */
export type Diagnostic = z.infer<typeof DiagnosticSchema>;

/** Orders diagnostics by position, then code, for stable output. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) => a.line - b.line || a.column - b.column || a.code.localeCompare(b.code),
  );
}

/**
 * The answer's diagnostics: sorted, the first `LIMITS.maxDiagnostics` of them, then (when there
 * were more) one TOO_LARGE diagnostic at the first one left out that says how many were.
 */
export function listDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const sorted = sortDiagnostics(diagnostics);
  const first = sorted[LIMITS.maxDiagnostics];
  if (!first) return sorted;
  const more = sorted.length - LIMITS.maxDiagnostics;
  const message = `${more} more problems were found; only the first ${LIMITS.maxDiagnostics} are listed.`;
  return [
    ...sorted.slice(0, LIMITS.maxDiagnostics),
    { code: 'TOO_LARGE', message, path: '', line: first.line, column: first.column },
  ];
}

// The text forms live apart from the schema, so a client prints them without loading zod.
export { diagnosticText, formatDiagnostics } from './diagnostic-text.js';
