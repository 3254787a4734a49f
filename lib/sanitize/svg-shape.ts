/**
 * The size of a markup input as an HTML parser builds it, measured before the SVG sanitiser
 * hands it to jsdom. jsdom builds a deeply nested tree in superlinear time (about 7 s for 2,400
 * nested `<g>` in a 17 KiB input), while parse5, the parser jsdom itself uses, builds the same
 * tree shape in linear time. So the shape is measured with parse5 alone, and an input too deep
 * or with too many elements is refused before any DOM is built.
 */
import { parse } from 'parse5';

/** Deepest element nesting accepted, counted from the `<svg>` root (1). */
export const MAX_SVG_DEPTH = 64;
/** Most elements accepted in one input (real icons hold tens, schematics hundreds). */
export const MAX_SVG_ELEMENTS = 10_000;
/** `<html>` and `<body>`, which the HTML parser puts around an `<svg>` root. */
const DOCUMENT_WRAPPERS = 2;

interface ParsedNode {
  childNodes?: ParsedNode[];
  content?: ParsedNode;
  tagName?: string;
}

export interface MarkupShape {
  elements: number;
  depth: number;
}

/**
 * Element count and deepest nesting of `input` parsed as HTML (template contents included), or
 * undefined as soon as either passes its limit (the walk stops there).
 */
export function withinShapeLimits(input: string): MarkupShape | undefined {
  const doc = parse(input) as ParsedNode;
  const maxDepth = MAX_SVG_DEPTH + DOCUMENT_WRAPPERS;
  let elements = 0;
  let depth = 0;
  const walk: [ParsedNode, number][] = [[doc, 1]];
  for (let next = walk.pop(); next; next = walk.pop()) {
    const [node, level] = next;
    if (node.tagName !== undefined) {
      elements += 1;
      depth = Math.max(depth, level);
      if (elements > MAX_SVG_ELEMENTS || depth > maxDepth) return undefined;
    }
    const childLevel = node.tagName !== undefined ? level + 1 : level;
    for (const child of node.childNodes ?? []) walk.push([child, childLevel]);
    if (node.content) walk.push([node.content, childLevel]);
  }
  return { elements, depth: Math.max(0, depth - DOCUMENT_WRAPPERS) };
}
