/** The graph's layout (dagre, in Node here) and the run states its nodes show. */
import { describe, expect, it } from 'vitest';
import { planGraph } from '../../definitions/plan-graph.js';
import { planOf } from '../../definitions/testing/compile.js';
import {
  BOX_HEADER,
  layoutGraph,
  NODE_HEIGHT,
  NODE_WIDTH,
  type PlacedNode,
} from '../../web/src/workflow/graph-layout.js';
import { nodeStates, statusText } from '../../web/src/workflow/graph-status.js';

const SOURCE = `title: Layout
start_when:
  manual: {}
steps:
  - id: first
    wait: { duration: 1s }
  - id: each_one
    for_each:
      items: [1, 2]
      steps:
        - id: inner_a
          wait: { duration: 1s }
          on_error:
            - id: handle_a
              wait: { duration: 1s }
        - id: inner_b
          wait: { duration: 1s }
  - id: both
    parallel:
      steps:
        - id: left
          wait: { duration: 1s }
        - id: right
          wait: { duration: 1s }
  - id: last
    if: steps.first.waited_ms > 0
    wait: { duration: 1s }
`;

const overlap = (a: PlacedNode, b: PlacedNode) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (inner: PlacedNode, outer: PlacedNode) =>
  inner.x >= outer.x &&
  inner.y >= outer.y + BOX_HEADER &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;

describe('layoutGraph', () => {
  const layout = layoutGraph(planGraph(planOf(SOURCE)));
  const byId = new Map(layout.nodes.map((n) => [n.node.id, n]));

  it('places every node once, steps at their size, boxes around their steps, siblings apart', () => {
    expect(layout.nodes.map((n) => n.node.id).sort()).toEqual(
      [
        'both',
        'each_one',
        'first',
        'handle_a',
        'inner_a',
        'inner_a.on_error',
        'inner_b',
        'last',
        'left',
        'right',
      ].sort(),
    );
    for (const id of ['first', 'inner_a', 'handle_a', 'left', 'last'])
      expect([id, byId.get(id)!.width, byId.get(id)!.height]).toEqual([id, NODE_WIDTH, NODE_HEIGHT]);
    for (const n of layout.nodes) {
      const parent = n.node.parent === undefined ? undefined : byId.get(n.node.parent);
      if (parent) expect([n.node.id, inside(n, parent)]).toEqual([n.node.id, true]);
      for (const m of layout.nodes)
        if (m !== n && m.node.parent === n.node.parent)
          expect([n.node.id, m.node.id, overlap(n, m)]).toEqual([n.node.id, m.node.id, false]);
      expect(n.x + n.width).toBeLessThanOrEqual(layout.width);
      expect(n.y + n.height).toBeLessThanOrEqual(layout.height);
    }
    // Top to bottom in plan order; a group's steps side by side.
    const top = (id: string) => byId.get(id)!.y;
    expect(top('first') < top('each_one') && top('each_one') < top('both') && top('both') < top('last')).toBe(
      true,
    );
    expect(top('left')).toBe(top('right'));
    expect(byId.get('left')!.x).not.toBe(byId.get('right')!.x);
  });

  it('routes each edge from its source to its target, labels at their edge', () => {
    expect(layout.edges.map((e) => [e.from, e.to, e.label ?? null])).toEqual([
      ['inner_a', 'inner_a.on_error', 'on error'],
      ['inner_a', 'inner_b', null],
      ['first', 'each_one', null],
      ['each_one', 'both', null],
      ['both', 'last', 'if steps.first.waited_ms > 0'],
    ]);
    for (const e of layout.edges) {
      const from = byId.get(e.from)!;
      const to = byId.get(e.to)!;
      const start = e.points[0]!;
      const end = e.points.at(-1)!;
      expect(Math.abs(start.y - (from.y + from.height))).toBeLessThan(1);
      expect(Math.abs(end.y - to.y)).toBeLessThan(1);
    }
    expect(layout.edges.at(-1)!.labelAt).toEqual({ x: expect.any(Number), y: expect.any(Number) });
  });
});

describe('node states', () => {
  const step = (over: object) => ({
    id: 's',
    status: 'running' as const,
    started_at: '2026-11-27T10:00:00.000Z',
    finished_at: null,
    output_summary: null,
    error: null,
    ...over,
  });

  it('shows a running wait as waiting, and every status with a glyph, its word and its time', () => {
    const states = nodeStates([
      step({ id: 'a', status: 'completed', finished_at: '2026-11-27T10:00:01.500Z' }),
      step({ id: 'b', wake_at: '2026-11-27T11:00:00Z' }),
      step({ id: 'c' }),
      step({ id: 'd', status: 'failed', finished_at: '2026-11-27T10:00:00.250Z' }),
      step({ id: 'e', status: 'skipped', started_at: null }),
    ]);
    expect([...states].map(([id, s]) => [id, s.status, s.text])).toEqual([
      ['a', 'completed', '✓ completed · 1.5 s'],
      ['b', 'waiting', '⏸ waiting'],
      ['c', 'running', '▶ running'],
      ['d', 'failed', '✕ failed · 250 ms'],
      ['e', 'skipped', '↷ skipped'],
    ]);
    expect(statusText('pending', { started_at: null, finished_at: null })).toBe('○ pending');
  });
});
