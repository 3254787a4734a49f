/** Times of a task and its steps as the pages show them. Pure, unit-tested. */

/** `12:03:04` in the browser's time zone, or `—`. */
export function clock(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleTimeString(undefined, { hour12: false });
}

/** Date and time of an instant (a wait may last days): `25/11/2026, 14:05:00` in the user's locale. */
export function dateTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleString(undefined, { hour12: false });
}

/** The time between two instants: `850 ms`, `4.2 s`, `3 min 5 s`; `—` while not finished. */
export function duration(start: string | null | undefined, end: string | null | undefined): string {
  if (!start || !end) return '—';
  const ms = new Date(end).getTime() - new Date(start).getTime();
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** `output_summary` counts as `results 3, result_count 3`; empty when there are none. */
export function summary(counts: Record<string, unknown> | null | undefined): string {
  if (!counts) return '';
  return Object.entries(counts)
    .filter(([, v]) => typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean')
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(', ');
}
