/**
 * A definition's steps drawn as a graph (layout by dagre, graph-layout.ts), as SVG elements with
 * classes only: the CSP allows no inline style. Given a run's steps, each node shows its live
 * status in words, a glyph and a colour, with its time, and is a button that selects the step.
 * Without them, the picture is decorative and an ordered list of the steps says the same.
 */
import { useId, useMemo } from 'preact/hooks';
import type { Task } from '../../../sdk/generated.js';
import {
  BOX_PADDING,
  cut,
  EDGE_LABEL_CHARS,
  layoutGraph,
  type DefinitionGraph,
  type GraphNode,
  type PlacedNode,
} from './graph-layout.js';
import { nodeStates, type NodeState } from './graph-status.js';
import './graph.css';

/** Characters of a line of text in a step's box; a wider box (a loop, group or handler) takes more. */
const LINE_CHARS = 26;
/** About how wide a character of a box's text is. */
const CHAR_WIDTH = 7;

function pathOf(points: Array<{ x: number; y: number }>): string {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
}

/** One node's box and lines of text; a button when it has a run state and a handler. */
function Node(props: {
  placed: PlacedNode;
  state: NodeState | undefined;
  selected: boolean;
  onSelect: ((id: string) => void) | undefined;
}) {
  const { placed, state } = props;
  const n = placed.node;
  const lines = [n.id, n.label, state?.text ?? (n.condition ? `if ${n.condition}` : '')];
  const width = Math.max(LINE_CHARS, Math.floor((placed.width - 2 * BOX_PADDING) / CHAR_WIDTH));
  const shown = lines.filter(Boolean).map((line) => cut(line, width));
  const full = [n.id, n.label, n.condition ? `if ${n.condition}` : '', state?.text ?? ''].filter(Boolean);
  // Its name (the title, also its tooltip) starts with the text on screen, then what a cut line hides.
  const hidden = full.filter((line) => !shown.includes(line));
  const name = [shown.join(' '), ...hidden].join(', ');
  const interactive = state !== undefined && props.onSelect !== undefined;
  const classes = [
    'graph-node',
    `kind-${n.kind}`,
    placed.compound ? 'compound' : 'leaf',
    state ? `status-${state.status}` : '',
    props.selected ? 'selected' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const select = () => props.onSelect?.(n.id);
  return (
    <g
      class={classes}
      transform={`translate(${placed.x.toFixed(1)},${placed.y.toFixed(1)})`}
      data-node={n.id}
      data-status={state?.status}
      {...(interactive
        ? {
            role: 'button',
            tabindex: 0,
            'aria-pressed': props.selected,
            onClick: select,
            onKeyDown: (e: KeyboardEvent) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                select();
              }
            },
          }
        : {})}
    >
      <title>{name}</title>
      <rect class="graph-box" width={placed.width} height={placed.height} rx={8} ry={8} />
      {lines.map((line, i) =>
        line ? (
          <text
            key={i}
            class={i === 0 ? 'graph-id' : i === lines.length - 1 && state ? 'graph-state' : 'graph-label'}
            x={BOX_PADDING - 4}
            y={17 + i * 17}
          >
            {cut(line, width)}
          </text>
        ) : null,
      )}
    </g>
  );
}

/** The steps as nested ordered lists: the text the picture stands for. */
function StepOutline(props: { graph: DefinitionGraph; parent?: string }) {
  const members = props.graph.nodes.filter((n) => n.parent === props.parent);
  if (members.length === 0) return null;
  const line = (n: GraphNode) =>
    `${n.kind === 'handler' ? n.label : `${n.id}: ${n.label}`}${n.condition ? `, only if ${n.condition}` : ''}`;
  return (
    <ol>
      {members.map((n) => (
        <li key={n.id}>
          {line(n)}
          <StepOutline graph={props.graph} parent={n.id} />
        </li>
      ))}
    </ol>
  );
}

export function PlanGraph(props: {
  graph: DefinitionGraph;
  /** The accessible name of the picture. */
  label: string;
  /** A run's steps: each node then shows its state and can be selected. */
  steps?: Task['steps'];
  selected?: string | null;
  onSelect?: (id: string) => void;
}) {
  const layout = useMemo(() => layoutGraph(props.graph), [props.graph]);
  const arrow = `graph-arrow-${useId()}`;
  const states = useMemo(() => (props.steps ? nodeStates(props.steps) : undefined), [props.steps]);
  const live = states !== undefined;
  // Boxes first (outer before inner), then edges over them, then leaf steps on top.
  const order = [...layout.nodes].sort(
    (a, b) => Number(a.compound) - Number(b.compound) || a.depth - b.depth,
  );
  const boxes = order.filter((p) => p.compound).sort((a, b) => a.depth - b.depth);
  const leaves = order.filter((p) => !p.compound);
  const node = (p: PlacedNode) => (
    <Node
      key={p.node.id}
      placed={p}
      state={states?.get(p.node.id)}
      selected={props.selected === p.node.id}
      onSelect={props.onSelect}
    />
  );
  return (
    <div class="plan-graph">
      <div class="graph-scroll" tabIndex={0} role="region" aria-label={`${props.label} (scrolls)`}>
        <svg
          class={`graph-svg${live ? ' live' : ''}`}
          width={layout.width}
          height={layout.height}
          viewBox={`0 0 ${layout.width} ${layout.height}`}
          {...(live ? { role: 'group', 'aria-label': props.label } : { 'aria-hidden': 'true' })}
        >
          <defs>
            <marker
              id={arrow}
              viewBox="0 0 10 10"
              refX={9}
              refY={5}
              markerWidth={7}
              markerHeight={7}
              orient="auto-start-reverse"
            >
              <path class="graph-arrow" d="M0,0 L10,5 L0,10 z" />
            </marker>
          </defs>
          {boxes.map(node)}
          <g class="graph-edges" aria-hidden="true">
            {layout.edges.map((e, i) => (
              <g
                key={i}
                class={`graph-edge${e.label === 'else' ? ' else' : ''}`}
                data-from={e.from}
                data-to={e.to}
              >
                <path d={pathOf(e.points)} marker-end={`url(#${arrow})`} />
                {e.label ? <title>{e.label}</title> : null}
                {e.label && e.labelAt ? (
                  <text class="graph-edge-label" x={e.labelAt.x} y={e.labelAt.y + 4} text-anchor="middle">
                    {cut(e.label, EDGE_LABEL_CHARS)}
                  </text>
                ) : null}
              </g>
            ))}
          </g>
          {leaves.map(node)}
        </svg>
      </div>
      {live ? null : (
        <div class="visually-hidden">
          <StepOutline graph={props.graph} />
        </div>
      )}
    </div>
  );
}
