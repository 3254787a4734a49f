/** Byte counts in the binary units people read (`1 MiB`, `256 KiB`), for messages that state a limit. */

const UNITS = [
  ['GiB', 1024 ** 3],
  ['MiB', 1024 ** 2],
  ['KiB', 1024],
] as const;

/**
 * `bytes` in the largest binary unit it reaches, with at most one decimal (`1 MiB`, `1.5 KiB`,
 * `512 bytes`). A message that must be exact states the byte count beside it.
 */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of UNITS) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return bytes === 1 ? '1 byte' : `${bytes} bytes`;
}
