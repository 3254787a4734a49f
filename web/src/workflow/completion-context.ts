/**
 * What the YAML editor may complete at a cursor position: a key of the mapping the cursor is
 * in, a skill name after `use_app_skill:`, an earlier step's id after `{{steps.` (or `$nodes.`
 * in a condition), or that step's output fields after `{{steps.<id>.` (`$nodes.<id>.output.`). Pure, unit-tested; the editor turns the answer
 * into options (completion.ts).
 */
import { STEP_ACTIONS } from '../../../definitions/step-actions.js';

/** Keys of the definition itself. */
export const TOP_KEYS = ['title', 'description', 'start_when', 'steps', 'outputs', 'concurrency'] as const;

/** Keys of one step. */
export const STEP_KEYS = [
  'id',
  'use_app_skill',
  'input',
  ...STEP_ACTIONS.filter((a) => a !== 'use_app_skill'),
  'on_error',
  'if',
  'continue_on_error',
  'timeout',
  'retry',
] as const;

/** Keys of a construct's mapping, by the key that holds it. */
export const CONSTRUCT_KEYS: Readonly<Record<string, readonly string[]>> = {
  start_when: ['manual', 'schedule', 'event', 'webhook'],
  manual: ['inputs'],
  webhook: ['inputs'],
  event: ['name', 'inputs'],
  schedule: ['cron', 'every', 'timezone', 'overlap', 'catchup_window'],
  send_chat_message: ['title', 'message', 'chat_id'],
  decide: ['type', 'question', 'options', 'context', 'fallback', 'min_confidence'],
  wait: ['duration', 'until'],
  fail: ['code', 'message'],
  retry: ['max_attempts', 'initial_interval', 'backoff'],
  for_each: ['items', 'concurrency', 'steps'],
  parallel: ['steps'],
  use_workflow: ['workflow', 'version', 'inputs'],
  wait_for_approval: ['title', 'payload', 'timeout', 'on_timeout'],
  wait_for_event: ['name', 'match', 'timeout', 'on_timeout'],
  concurrency: ['limit', 'key'],
};

/** Keys whose value is a list of steps. */
const STEP_LISTS = new Set(['steps', 'on_error']);

export type CompletionContext =
  /** A key: `from` is where the typed part of it starts. */
  | { kind: 'key'; from: number; keys: readonly string[] }
  /** A skill name after `use_app_skill:`. */
  | { kind: 'skill'; from: number }
  /** A step id after `{{steps.`: the ids of the steps that start before the cursor's step. */
  | { kind: 'step'; from: number; earlier: string[] }
  /** An output field after `{{steps.<id>.`. */
  | { kind: 'field'; from: number; step: string };

interface Line {
  text: string;
  /** Offset of its first character in the document. */
  start: number;
  number: number;
}

function linesOf(doc: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  doc.split('\n').forEach((text, i) => {
    lines.push({ text, start, number: i + 1 });
    start += text.length + 1;
  });
  return lines;
}

/** A YAML mapping line: its key's column and name (`- ` list marks count as indentation). */
function keyOf(text: string): { column: number; key: string; item: boolean } | undefined {
  const m = /^(\s*)(-\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*:/.exec(text);
  if (!m) return undefined;
  return { column: m[1]!.length + (m[2]?.length ?? 0), key: m[3]!, item: m[2] !== undefined };
}

const STEP_ID = /^\s*-\s+id\s*:\s*['"]?([A-Za-z0-9_]+)/;

/** Every `- id: <id>` line of the text, in order, with its 1-based line. */
export function stepIdsOf(doc: string): Array<{ id: string; line: number }> {
  return linesOf(doc).flatMap((l) => {
    const m = STEP_ID.exec(l.text);
    return m ? [{ id: m[1]!, line: l.number }] : [];
  });
}

/** The ids of the steps that start before the step holding `lineNumber`. */
function earlierSteps(doc: string, lineNumber: number): string[] {
  const steps = stepIdsOf(doc);
  const current = steps.filter((s) => s.line <= lineNumber).at(-1);
  return steps.filter((s) => current && s.line < current.line).map((s) => s.id);
}

/**
 * The keys allowed on a line whose key starts at `column` (a list item when `item`): found from
 * the closest line above at that column (a sibling key) or left of it (the key holding it).
 */
function keysAt(lines: Line[], index: number, column: number, item: boolean): readonly string[] {
  if (column === 0 && !item) return TOP_KEYS;
  let sibling = item;
  for (let i = index - 1; i >= 0; i--) {
    const k = keyOf(lines[i]!.text);
    if (!k) continue;
    if (k.column === column && !sibling) {
      if ((STEP_KEYS as readonly string[]).includes(k.key) && k.key !== 'timeout') return STEP_KEYS;
      if (k.item) sibling = true;
      continue;
    }
    if (k.column < column) {
      if (STEP_LISTS.has(k.key)) return STEP_KEYS;
      return CONSTRUCT_KEYS[k.key] ?? [];
    }
  }
  return [];
}

/** What can be completed at `pos` of `doc`, or undefined. */
export function completionContext(doc: string, pos: number): CompletionContext | undefined {
  const lines = linesOf(doc);
  const index = lines.findIndex(
    (l, i) => pos >= l.start && (i === lines.length - 1 || pos < lines[i + 1]!.start),
  );
  const line = lines[index];
  if (!line) return undefined;
  const before = line.text.slice(0, pos - line.start);

  // In a condition (`if:`), `$nodes.<id>.output.<field>` reads a step's output.
  const nodeField = /\$nodes\.([A-Za-z0-9_]+)\.output\.([A-Za-z0-9_]*)$/.exec(before);
  if (nodeField) return { kind: 'field', from: pos - nodeField[2]!.length, step: nodeField[1]! };
  const node = /\$nodes\.([A-Za-z0-9_]*)$/.exec(before);
  if (node) return { kind: 'step', from: pos - node[1]!.length, earlier: earlierSteps(doc, line.number) };
  const field = /\{\{[^}]*?\bsteps\.([A-Za-z0-9_]+)\.([A-Za-z0-9_]*)$/.exec(before);
  if (field) return { kind: 'field', from: pos - field[2]!.length, step: field[1]! };
  const step = /\{\{[^}]*?\bsteps\.([A-Za-z0-9_]*)$/.exec(before);
  if (step) return { kind: 'step', from: pos - step[1]!.length, earlier: earlierSteps(doc, line.number) };

  const skill = /^\s*(?:-\s+)?use_app_skill\s*:\s*['"]?([A-Za-z0-9_.]*)$/.exec(before);
  if (skill) return { kind: 'skill', from: pos - skill[1]!.length };

  const key = /^(\s*)(-\s+)?([A-Za-z_]*)$/.exec(before);
  if (key) {
    const column = key[1]!.length + (key[2]?.length ?? 0);
    const keys = keysAt(lines, index, column, key[2] !== undefined);
    return keys.length > 0 ? { kind: 'key', from: pos - key[3]!.length, keys } : undefined;
  }
  return undefined;
}

/** The skill name (`app.skill`) under `pos` on a `use_app_skill:` line, with its span. */
export function skillAt(doc: string, pos: number): { name: string; from: number; to: number } | undefined {
  const start = doc.lastIndexOf('\n', pos - 1) + 1;
  const endAt = doc.indexOf('\n', pos);
  const text = doc.slice(start, endAt === -1 ? doc.length : endAt);
  const m = /^(\s*(?:-\s+)?use_app_skill\s*:\s*['"]?)([A-Za-z0-9_]+\.[A-Za-z0-9_]+)/.exec(text);
  if (!m) return undefined;
  const from = start + m[1]!.length;
  const to = from + m[2]!.length;
  return pos >= from && pos <= to ? { name: m[2]!, from, to } : undefined;
}
