/**
 * A forward search that remembers its last answer. The lexer asks from positions that only
 * grow, so a search that found nothing, or found a match still ahead, is answered again without
 * scanning: the total cost over a whole template stays linear in its length.
 */
export class ForwardSearch {
  private from = Number.POSITIVE_INFINITY;
  private found = -1;

  /** `search(from)` is the first match at or after `from`, or -1. */
  constructor(private readonly search: (from: number) => number) {}

  /** The first match at or after `from`, or -1. */
  next(from: number): number {
    if (from >= this.from && (this.found < 0 || from <= this.found)) return this.found;
    this.from = from;
    this.found = this.search(from);
    return this.found;
  }
}

/** The first `ch` at or after `from` that no backslash precedes, or -1. */
export function unescaped(text: string, ch: string): ForwardSearch {
  return new ForwardSearch((from) => {
    for (let at = text.indexOf(ch, from); at >= 0; at = text.indexOf(ch, at + 1)) {
      if (text.charCodeAt(at - 1) !== 92) return at;
    }
    return -1;
  });
}

/** The end of the run of characters passing `test` that holds `from` (`from` if none). */
export class RunEnd {
  private start = -1;
  private end = -1;

  constructor(
    private readonly text: string,
    private readonly test: (code: number) => boolean,
  ) {}

  at(from: number): number {
    if (from >= this.start && from < this.end) return this.end;
    let end = from;
    while (end < this.text.length && this.test(this.text.charCodeAt(end))) end++;
    if (end > from) [this.start, this.end] = [from, end];
    return end;
  }
}
