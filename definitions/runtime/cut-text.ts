/** Bounding rendered text shown to people (a fail step's message, an approval's title). */

/** `text` when it has at most `max` characters (code points), else its first `max - 1` and `…`. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
