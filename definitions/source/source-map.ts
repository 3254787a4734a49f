/**
 * Source positions of every node of a parsed definition, keyed by path, so that later stages
 * (zod issues, reference checks, template errors) can point at a line and column.
 */
import { formatPath } from '../../lib/errors/skillflow-error.js';
import type { Diagnostic, DiagnosticCode } from '../diagnostics.js';

/** A path into the parsed document, e.g. `['steps', 0, 'id']`. */
export type DocPath = ReadonlyArray<string | number>;

/** Where one node sits in the source (offsets are string indices). */
export interface NodeSpan {
  /** Start of the value. */
  start: number;
  /** Start of the mapping key that holds the value, when there is one. */
  keyStart?: number;
  /**
   * For strings: the source offset of each character of the parsed value, when it could be
   * aligned with the source (escapes and folded lines cannot), so that errors inside templates
   * and `if` expressions point at the exact line and column.
   */
  offsets?: number[];
}

/** Which part of a node a diagnostic points at. */
export interface LocateOptions {
  /** Point at the key rather than the value (unknown and duplicate fields). */
  key?: boolean;
  /** Offset inside a string value (a template or `if` error). */
  offset?: number;
}

/** Returns the start offset of every line of `text`. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** Positions of a parsed source, with a factory for diagnostics. */
export class SourceMap {
  private readonly spans = new Map<string, NodeSpan>();
  private readonly starts: number[];

  constructor(source: string) {
    this.starts = lineStarts(source);
  }

  /** Records the span of the node at `path`. */
  set(path: DocPath, span: NodeSpan): void {
    this.spans.set(formatPath(path), span);
  }

  /** The span of the node at `path`, or of its nearest recorded ancestor. */
  span(path: DocPath): NodeSpan | undefined {
    for (let n = path.length; n >= 0; n--) {
      const span = this.spans.get(formatPath(path.slice(0, n)));
      if (span) return n === path.length ? span : { start: span.keyStart ?? span.start };
    }
    return undefined;
  }

  /** 1-based line and column of a string offset. */
  lineColumn(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (this.starts[lo] ?? 0) + 1 };
  }

  /** The offset a diagnostic about `path` should point at. */
  offsetOf(path: DocPath, options: LocateOptions = {}): number {
    const span = this.span(path);
    if (!span) return 0;
    if (options.key && span.keyStart !== undefined) return span.keyStart;
    if (options.offset !== undefined && span.offsets) {
      const { offsets } = span;
      const last = offsets[offsets.length - 1];
      return offsets[options.offset] ?? (last === undefined ? span.start : last + 1);
    }
    return span.start;
  }

  /** Builds a diagnostic positioned at the node of `path`. */
  diagnostic(code: DiagnosticCode, message: string, path: DocPath, options: LocateOptions = {}): Diagnostic {
    return { code, message, path: formatPath(path), ...this.lineColumn(this.offsetOf(path, options)) };
  }
}
