/**
 * A run's step states as the graph shows them: per node, a status word, a glyph (so the status
 * never rests on colour alone) and the time it took. Pure.
 */
import type { Task } from '../../../sdk/generated.js';
import { duration } from '../task/timing.js';

type Step = Task['steps'][number];

/** What a node shows: the API's step statuses, with a running wait, approval or event wait as `waiting`. */
export type NodeStatus = Step['status'] | 'waiting';

export interface NodeState {
  status: NodeStatus;
  /** `✓ completed · 1.2 s` */
  text: string;
  step: Step;
}

const GLYPHS: Record<NodeStatus, string> = {
  pending: '○',
  running: '▶',
  waiting: '⏸',
  completed: '✓',
  failed: '✕',
  skipped: '↷',
  cancelled: '⊘',
  reused: '↺',
};

/** The status a node shows for `step`. */
export function nodeStatus(step: Step): NodeStatus {
  if (step.status === 'running' && (step.wake_at || step.approval || step.event)) return 'waiting';
  return step.status;
}

/** The glyph and words of a status, with the step's duration once it has one. */
export function statusText(status: NodeStatus, step: Pick<Step, 'started_at' | 'finished_at'>): string {
  const took = duration(step.started_at, step.finished_at);
  return `${GLYPHS[status]} ${status}${took === '—' ? '' : ` · ${took}`}`;
}

/** Each listed step's state, by step id. Steps inside a loop are not listed one by one. */
export function nodeStates(steps: readonly Step[]): Map<string, NodeState> {
  return new Map(
    steps.map((step) => {
      const status = nodeStatus(step);
      return [step.id, { status, text: statusText(status, step), step }] as const;
    }),
  );
}
