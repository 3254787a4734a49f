import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHES, RECORDED, recordedLines } from './recorded.js';

const doc = readFileSync(path.resolve(import.meta.dirname, '../docs/benchmarks.md'), 'utf8');

describe('the recorded figures npm run bench prints', () => {
  it('lists benchmarks that exist, each with figures of a day the benchmarks document records', () => {
    const missing = BENCHES.filter((file) => !existsSync(path.join(import.meta.dirname, file)));
    expect(missing).toEqual([]);
    for (const file of BENCHES) {
      expect(RECORDED[file].figures.length).toBeGreaterThan(0);
      expect(doc).toContain(RECORDED[file].date);
    }
  });

  it('prints one line per benchmark', () => {
    expect(recordedLines('memory.bench.ts')).toBe(
      'recorded 2026-11-23 (docs/benchmarks.md): 0.30-0.34 MB RSS per cached workflow\n',
    );
  });
});
