/** Number formats for result tables (pure). */

/** `0.9273` → `92.7 %`. */
export const percent = (v: unknown) => (typeof v === 'number' ? `${(v * 100).toFixed(1)} %` : '—');
/** `1100000` → `1.1 MHz`, `500000` → `500 kHz`. */
export function hertz(v: unknown): string {
  if (typeof v !== 'number') return '—';
  return v >= 1e6 ? `${+(v / 1e6).toFixed(2)} MHz` : `${+(v / 1e3).toFixed(1)} kHz`;
}
/** `2.4` → `$2.40`. */
export const usd = (v: unknown) => (typeof v === 'number' ? `$${v.toFixed(2)}` : '—');
/** `81` → `81 mm²`. */
export const area = (v: unknown) => (typeof v === 'number' ? `${v} mm²` : '—');
