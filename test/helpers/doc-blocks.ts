/**
 * The runnable examples of a Markdown document: each fenced block whose info string is
 * `sh runnable`, `ts runnable` (the JavaScript SDK) or `python runnable` (the Python SDK), with
 * the output the document shows for it (a ```text block right after it,
 * only blank lines between), whose lines the run must print; `…` in a shown line stands for
 * any text.
 */
export type BlockLanguage = 'sh' | 'ts' | 'python';

export interface RunnableBlock {
  /** 1-based line of the opening fence. */
  line: number;
  lang: BlockLanguage;
  code: string;
  /** The shown output's non-empty lines; empty when the document shows none. */
  expected: string[];
}

interface Fence {
  line: number;
  info: string;
  body: string;
  /** 0-based index of the line after the closing fence. */
  next: number;
}

function fences(lines: string[]): Fence[] {
  const found: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && l === '```');
    if (end < 0) break;
    found.push({
      line: i + 1,
      info: open[1]!.trim(),
      body: lines.slice(i + 1, end).join('\n'),
      next: end + 1,
    });
    i = end;
  }
  return found;
}

export function runnableBlocks(markdown: string): RunnableBlock[] {
  const lines = markdown.split('\n');
  const all = fences(lines);
  const blocks: RunnableBlock[] = [];
  all.forEach((fence, k) => {
    const marked = /^(sh|ts|python) runnable$/.exec(fence.info);
    if (!marked) return;
    const after = all[k + 1];
    const adjacent =
      after !== undefined &&
      after.info === 'text' &&
      lines.slice(fence.next, after.line - 1).every((l) => l.trim() === '');
    blocks.push({
      line: fence.line,
      lang: marked[1] as BlockLanguage,
      code: fence.body,
      expected: adjacent ? after.body.split('\n').filter((l) => l.trim() !== '') : [],
    });
  });
  return blocks;
}

/** A shown output line as a pattern for one printed line: `…` is any text, trailing blanks ignored. */
export function shownLinePattern(shown: string): RegExp {
  const parts = shown
    .trimEnd()
    .split('…')
    .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}\\s*$`);
}
