/** Duration strings such as `30s`, `15m`, `1h30m` or `1d`. */

const DURATION = /^(?:(\d{1,6})d)?(?:(\d{1,6})h)?(?:(\d{1,6})m)?(?:(\d{1,6})s)?$/;
const UNIT_MS = [86_400_000, 3_600_000, 60_000, 1_000] as const;

/**
 * Parses a duration made of day, hour, minute and second parts in that order (each at most
 * once, e.g. `90s`, `1h30m`). Returns milliseconds, or undefined when malformed or zero.
 */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match || text.trim() === '') return undefined;
  let ms = 0;
  UNIT_MS.forEach((unit, i) => {
    const part = match[i + 1];
    if (part !== undefined) ms += Number(part) * unit;
  });
  return ms > 0 ? ms : undefined;
}
