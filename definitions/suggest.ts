/**
 * "Did you mean" for a name the compiler does not know (a skill, a step id): the known names
 * within a small edit distance, closest first. Bounded: names over {@link MAX_NAME} characters get
 * none, and the distance is computed in a band, giving up once it exceeds the allowance, so a
 * definition of thousands of references costs little.
 */

const MAX_NAME = 128;
const MAX_SUGGESTIONS = 3;

/** Lower case, `-` as `_`: `Search-Domains` and `search_domains` are the same name. */
const fold = (name: string) => name.toLowerCase().replaceAll('-', '_');

/** The edit distance of `a` and `b` (insert, delete, replace, swap of neighbours), or undefined over `max`. */
export function boundedDistance(a: string, b: string, max: number): number | undefined {
  if (Math.abs(a.length - b.length) > max) return undefined;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(max + 1);
    row[0] = i;
    let best = row[0];
    const from = Math.max(1, i - max);
    const to = Math.min(b.length, i + max);
    for (let j = from; j <= to; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(
        (prev[j] ?? max + 1) + 1,
        (row[j - 1] ?? max + 1) + 1,
        (prev[j - 1] ?? max + 1) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, (prevPrev[j - 2] ?? max + 1) + 1);
      row[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return undefined;
    prevPrev = prev;
    prev = row;
  }
  const d = prev[b.length]!;
  return d <= max ? d : undefined;
}

/**
 * The known names closest to `name` (at most 3): those within an edit distance of a third of its
 * length (at least 1, at most 3), and for an `<app>.<skill>` name also the skill part alone.
 */
export function suggestNames(name: string, known: Iterable<string>): string[] {
  if (name.length === 0 || name.length > MAX_NAME) return [];
  const wanted = fold(name);
  const max = Math.min(3, Math.max(1, Math.floor(wanted.length / 3)));
  const scored: { name: string; d: number }[] = [];
  for (const candidate of known) {
    const folded = fold(candidate);
    const skillPart = folded.slice(folded.indexOf('.') + 1);
    const d = Math.min(
      boundedDistance(wanted, folded, max) ?? Infinity,
      folded !== skillPart ? (boundedDistance(wanted, skillPart, max) ?? Infinity) : Infinity,
    );
    if (d <= max) scored.push({ name: candidate, d });
  }
  return scored
    .sort((x, y) => x.d - y.d || (x.name < y.name ? -1 : 1))
    .slice(0, MAX_SUGGESTIONS)
    .map((s) => s.name);
}
