/**
 * Lays out a definition's graph (from the API) with dagre, level by level: a loop, group or
 * handler is first laid out on its own, then placed as one box in the level around it, so no
 * edge ever enters a box and boxes never overlap. Every coordinate comes from dagre.
 */
import dagre, { type EdgeLabel, type GraphLabel, type NodeLabel } from '@dagrejs/dagre';
import type { WorkflowDefinition } from '../../../sdk/generated.js';

export type DefinitionGraph = WorkflowDefinition['graph'];
export type GraphNode = DefinitionGraph['nodes'][number];

/** A leaf step's box. */
export const NODE_WIDTH = 196;
export const NODE_HEIGHT = 64;
/** Inside a compound box: the padding around its steps and the band its title takes. */
export const BOX_PADDING = 14;
export const BOX_HEADER = 58;
/** Around the whole drawing. */
export const MARGIN = 8;
/** A label on an edge is cut to this many characters (the whole text is in its tooltip). */
export const EDGE_LABEL_CHARS = 28;

export interface PlacedNode {
  node: GraphNode;
  /** Top-left corner and size, in drawing units. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** Whether steps run inside it (a loop, group or handler). */
  compound: boolean;
  /** How deep it is nested (0 at the top). */
  depth: number;
}

export interface PlacedEdge {
  from: string;
  to: string;
  label?: string;
  points: Array<{ x: number; y: number }>;
  /** Centre of the label. */
  labelAt?: { x: number; y: number };
}

export interface GraphLayout {
  width: number;
  height: number;
  nodes: PlacedNode[];
  edges: PlacedEdge[];
}

/** `text` cut to `max` characters with an ellipsis. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

interface Level {
  width: number;
  height: number;
  nodes: PlacedNode[];
  edges: PlacedEdge[];
}

function layoutLevel(graph: DefinitionGraph, parent: string | undefined, depth: number): Level {
  const members = graph.nodes.filter((n) => n.parent === parent);
  const ids = new Set(members.map((n) => n.id));
  const inner = new Map<string, Level>();
  const g = new dagre.graphlib.Graph<GraphLabel, NodeLabel, EdgeLabel>({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 28, ranksep: 44, edgesep: 16, marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of members) {
    const hasSteps = graph.nodes.some((m) => m.parent === n.id);
    if (hasSteps) {
      const level = layoutLevel(graph, n.id, depth + 1);
      inner.set(n.id, level);
      g.setNode(n.id, {
        width: Math.max(NODE_WIDTH, level.width + 2 * BOX_PADDING),
        height: level.height + BOX_HEADER + BOX_PADDING,
      });
    } else g.setNode(n.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  }
  const edges = graph.edges.filter((e) => ids.has(e.from) && ids.has(e.to));
  edges.forEach((e, i) => {
    const label =
      e.label === undefined ? {} : { width: cut(e.label, EDGE_LABEL_CHARS).length * 7 + 8, height: 18 };
    g.setEdge(e.from, e.to, { ...label, labelpos: 'c' }, `e${i}`);
  });
  dagre.layout(g);
  const placed: PlacedNode[] = [];
  const placedEdges: PlacedEdge[] = [];
  for (const n of members) {
    const at = g.node(n.id);
    const x = (at.x ?? 0) - at.width / 2;
    const y = (at.y ?? 0) - at.height / 2;
    const level = inner.get(n.id);
    placed.push({ node: n, x, y, width: at.width, height: at.height, compound: level !== undefined, depth });
    if (!level) continue;
    // The inner level is centred in its box, under the title band.
    const dx = x + (at.width - level.width) / 2;
    const dy = y + BOX_HEADER;
    placed.push(...level.nodes.map((p) => ({ ...p, x: p.x + dx, y: p.y + dy })));
    placedEdges.push(
      ...level.edges.map((e) => ({
        ...e,
        points: e.points.map((p) => ({ x: p.x + dx, y: p.y + dy })),
        ...(e.labelAt && { labelAt: { x: e.labelAt.x + dx, y: e.labelAt.y + dy } }),
      })),
    );
  }
  edges.forEach((e, i) => {
    const at = g.edge({ v: e.from, w: e.to, name: `e${i}` });
    placedEdges.push({
      from: e.from,
      to: e.to,
      ...(e.label !== undefined && { label: e.label }),
      points: at.points ?? [],
      ...(e.label !== undefined &&
        at.x !== undefined &&
        at.y !== undefined && { labelAt: { x: at.x, y: at.y } }),
    });
  });
  const size = g.graph();
  return { width: size.width ?? 0, height: size.height ?? 0, nodes: placed, edges: placedEdges };
}

/** The whole drawing: every node and edge placed, with a margin around it. */
export function layoutGraph(graph: DefinitionGraph): GraphLayout {
  const level = layoutLevel(graph, undefined, 0);
  const shift = (p: { x: number; y: number }) => ({ x: p.x + MARGIN, y: p.y + MARGIN });
  return {
    width: Math.ceil(level.width + 2 * MARGIN),
    height: Math.ceil(level.height + 2 * MARGIN),
    nodes: level.nodes.map((n) => ({ ...n, ...shift(n) })),
    edges: level.edges.map((e) => ({
      ...e,
      points: e.points.map(shift),
      ...(e.labelAt && { labelAt: shift(e.labelAt) }),
    })),
  };
}
