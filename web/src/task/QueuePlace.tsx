/** A queued run's place under flow control, in words (nothing for a run that is not waiting). */
import type { Task } from '../../../sdk/generated.js';

const WHY: Record<string, string> = {
  concurrency: "this workflow's concurrency limit",
  owner_cap: 'your limit on runs at once',
};

/** "3rd in line", or "in line" while the place is not known. */
function place(position: number | null): string {
  if (position === null) return 'in line';
  const tens = position % 100;
  const suffix =
    tens >= 11 && tens <= 13
      ? 'th'
      : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[position % 10] ?? 'th');
  return `${position}${suffix} in line`;
}

export function QueuePlace(props: { queue: Task['queue'] }) {
  const { queue } = props;
  if (!queue) return null;
  const why = queue.reason ? WHY[queue.reason] : undefined;
  return (
    <span class="queue-place">
      {' '}
      — waiting for its turn, {place(queue.position)}
      {why ? ` (${why})` : ''}
    </span>
  );
}
