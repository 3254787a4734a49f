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

/** A node of the path trie: its span, and its children by key or index. */
interface PathNode {
  span?: NodeSpan;
  children?: Map<string | number, PathNode>;
}

/**
 * Positions of a parsed source, with a factory for diagnostics. Spans live in a trie keyed by
 * path segment, so recording or finding a node costs one step per segment: formatting every
 * path as a string key made deeply nested sources cost the square of their depth.
 */
export class SourceMap {
  private readonly root: PathNode = {};
  private readonly starts: number[];

  constructor(source: string) {
    this.starts = lineStarts(source);
  }

  /** Records the span of the node at `path`. */
  set(path: DocPath, span: NodeSpan): void {
    let node = this.root;
    for (const segment of path) {
      node.children ??= new Map();
      let child = node.children.get(segment);
      if (!child) {
        child = {};
        node.children.set(segment, child);
      }
      node = child;
    }
    node.span = span;
  }

  /** The span of the node at `path`, or of its nearest recorded ancestor. */
  span(path: DocPath): NodeSpan | undefined {
    let node: PathNode | undefined = this.root;
    let nearest = this.root.span;
    for (const segment of path) {
      node = node.children?.get(segment);
      if (!node) break;
      if (node.span) nearest = node.span;
    }
    if (node?.span) return node.span;
    return nearest && { start: nearest.keyStart ?? nearest.start };
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
