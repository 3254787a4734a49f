/**
 * The textual forms of references: `$nodes.<step>.output<path>`, `steps.<step><path>` and
 * `inputs.<name><path>`, where a path is any run of `.field`, `.0`, `[0]` and `[]`.
 */
import { CANONICAL_INDEX } from '../runtime/lookup.js';
import { EACH_SEGMENT, type PathSegment, type Reference } from '../runtime/plan.js';

/** A reference found in text, with where it ends. */
export type ScannedReference =
  { ok: true; ref: Reference; end: number } | { ok: false; message: string; at: number };

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const DIGITS = /\d+/y;

function readWith(pattern: RegExp, text: string, pos: number): string | undefined {
  pattern.lastIndex = pos;
  return pattern.exec(text)?.[0];
}

/**
 * Turns a textual segment into a path segment. A canonical index (`0`, `12`) within the safe
 * integer range becomes a number; every other spelling (`01`, a 20-digit run) stays the key as
 * written, so it reads that key of an object.
 */
export function toSegment(part: string): PathSegment {
  return CANONICAL_INDEX.test(part) && Number.isSafeInteger(Number(part)) ? Number(part) : part;
}

/** Reads `.field`, `.0`, `[0]` and `[]` segments from `pos`. */
function scanPath(
  text: string,
  pos: number,
): { path: PathSegment[]; end: number } | { message: string; at: number } {
  const path: PathSegment[] = [];
  for (;;) {
    const ch = text[pos];
    if (ch === '.') {
      const part = readWith(NAME, text, pos + 1) ?? readWith(DIGITS, text, pos + 1);
      if (part === undefined) return { message: 'Expected a field name or index after ".".', at: pos + 1 };
      path.push(toSegment(part));
      pos += 1 + part.length;
    } else if (ch === '[') {
      if (text[pos + 1] === ']') {
        path.push(EACH_SEGMENT);
        pos += 2;
        continue;
      }
      const digits = readWith(DIGITS, text, pos + 1);
      if (digits === undefined || text[pos + 1 + digits.length] !== ']') {
        return { message: 'Expected "[<index>]" or "[]".', at: pos };
      }
      path.push(toSegment(digits));
      pos += digits.length + 2;
    } else {
      return { path, end: pos };
    }
  }
}

/** Whether a reference starts at `pos`. */
export function startsReference(text: string, pos: number): boolean {
  return (
    ['$nodes.', 'steps.', 'inputs.'].some((prefix) => text.startsWith(prefix, pos)) ||
    loopReferenceAt(text, pos) !== undefined
  );
}

/**
 * `$item` (with an optional path), `$index` or `$error` (with `.code` or `.step`) at `pos`, not
 * followed by more of a name.
 */
function loopReferenceAt(text: string, pos: number): '$item' | '$index' | '$error' | undefined {
  for (const word of ['$item', '$index', '$error'] as const) {
    if (text.startsWith(word, pos) && !/[A-Za-z0-9_]/.test(text[pos + word.length] ?? '')) return word;
  }
  return undefined;
}

/** Scans one reference starting at `pos` (which must satisfy {@link startsReference}). */
export function scanReference(text: string, pos: number): ScannedReference {
  const loop = loopReferenceAt(text, pos);
  if (loop === '$index') return { ok: true, ref: { root: 'loop_index' }, end: pos + loop.length };
  if (loop === '$error') {
    const scanned = scanPath(text, pos + loop.length);
    if ('message' in scanned) return { ok: false, message: scanned.message, at: scanned.at };
    const [field, ...rest] = scanned.path;
    if ((field !== 'code' && field !== 'step') || rest.length > 0)
      return { ok: false, message: '$error has only the fields code and step.', at: pos };
    return { ok: true, ref: { root: 'error', field }, end: scanned.end };
  }
  if (loop === '$item') {
    const scanned = scanPath(text, pos + loop.length);
    if ('message' in scanned) return { ok: false, message: scanned.message, at: scanned.at };
    return { ok: true, ref: { root: 'loop', path: scanned.path }, end: scanned.end };
  }
  const nodes = text.startsWith('$nodes.', pos);
  const rootLength = nodes ? 7 : text.startsWith('steps.', pos) ? 6 : 7;
  const nameAt = pos + rootLength;
  const name = readWith(NAME, text, nameAt);
  if (name === undefined) return { ok: false, message: 'Expected a step id or input name.', at: nameAt };
  let rest = nameAt + name.length;
  if (nodes) {
    if (!text.startsWith('.output', rest)) {
      return { ok: false, message: 'Expected ".output" after the step id.', at: rest };
    }
    rest += 7;
  }
  const scanned = scanPath(text, rest);
  if ('message' in scanned) return { ok: false, message: scanned.message, at: scanned.at };
  const ref: Reference = text.startsWith('inputs.', pos)
    ? { root: 'inputs', name, path: scanned.path }
    : { root: 'steps', step: name, path: scanned.path };
  return { ok: true, ref, end: scanned.end };
}
