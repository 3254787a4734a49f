/**
 * Handlebars lexes a path segment made of digits as a number literal when it ends the path
 * (`{{inputs.tags.0}}`, `{{default inputs.tags.0 "x"}}`), so such a path does not parse. The
 * language documents `.0` as a list index, so before parsing, each such segment is written in
 * the bracket form Handlebars reads as a segment (`.[0]`), keeping its spelling. Offsets in the
 * rewritten text map back to the source, so diagnostics point at what the author wrote.
 */
import Handlebars from 'handlebars';

interface JisonLexer {
  setInput(input: string, yy: object): void;
  lex(): number | string;
  match: string;
  matched: string;
}

/** The part of Handlebars' jison parser used here (not in its type declarations). */
const PARSER = (
  Handlebars as unknown as { Parser: { lexer: JisonLexer; terminals_: Record<number, string> } }
).Parser;

/** A template ready for `Handlebars.parse`, with the way back to source offsets. */
export interface BracketedTemplate {
  text: string;
  /** The source offset of an offset in {@link BracketedTemplate.text}. */
  toSource(offset: number): number;
}

/** Rewrites every digit segment that Handlebars would lex as a number into `[digits]`. */
export function bracketNumericSegments(source: string): BracketedTemplate {
  const edits = numericSegments(source);
  if (edits.length === 0) return { text: source, toSource: (offset) => offset };
  const inserted: number[] = [];
  let text = '';
  let from = 0;
  for (const { start, digits } of edits) {
    text += source.slice(from, start);
    digits.split('.').forEach((run, i) => {
      if (i > 0) text += '.';
      inserted.push(text.length);
      text += `[${run}`;
      inserted.push(text.length);
      text += ']';
    });
    from = start + digits.length;
  }
  text += source.slice(from);
  return {
    text,
    toSource: (offset) => offset - countBelow(inserted, offset),
  };
}

/** How many of the ascending `sorted` are below `value` (a binary search). */
function countBelow(sorted: readonly number[], value: number): number {
  let [low, high] = [0, sorted.length];
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((sorted[mid] as number) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Number tokens that follow a path separator: `0` or `0.1` (two segments), with their offsets. */
function numericSegments(source: string): Array<{ start: number; digits: string }> {
  // Lexing costs about as much as parsing: skip it when no separator is followed by a digit.
  if (!/[./]\d/.test(source)) return [];
  const lexer = Object.create(PARSER.lexer) as JisonLexer;
  const out: Array<{ start: number; digits: string }> = [];
  try {
    lexer.setInput(source, {});
    let previous = '';
    // Every token consumes at least one character: the bound only guards against a lexer bug.
    for (let guard = 0; guard <= source.length; guard++) {
      const token = lexer.lex();
      const name = typeof token === 'number' ? (PARSER.terminals_[token] ?? '') : token;
      if (name === 'EOF') break;
      if (name === 'NUMBER' && previous === 'SEP' && /^\d+(?:\.\d+)?$/.test(lexer.match))
        out.push({ start: lexer.matched.length - lexer.match.length, digits: lexer.match });
      previous = name;
    }
  } catch {
    // A lexical error: the parser reports it, with the template as written.
    return [];
  }
  return out;
}
