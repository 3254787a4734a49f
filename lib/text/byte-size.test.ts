import { describe, expect, it } from 'vitest';
import { formatBytes } from './byte-size.js';

describe('formatBytes', () => {
  it('states whole binary units without decimals', () => {
    expect(formatBytes(1024 * 1024)).toBe('1 MiB');
    expect(formatBytes(2 * 1024 * 1024)).toBe('2 MiB');
    expect(formatBytes(256 * 1024)).toBe('256 KiB');
    expect(formatBytes(32 * 1024)).toBe('32 KiB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3 GiB');
  });

  it('rounds other sizes to one decimal in the largest unit reached', () => {
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(1_500_000)).toBe('1.4 MiB');
    expect(formatBytes(80 * 1024 + 1)).toBe('80 KiB');
  });

  it('counts bytes below one KiB', () => {
    expect(formatBytes(1023)).toBe('1023 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(0)).toBe('0 bytes');
  });
});
