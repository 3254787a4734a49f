import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHES, RECORDED, recordedLines } from './recorded.js';

const doc = readFileSync(path.resolve(import.meta.dirname, '../docs/benchmarks.md'), 'utf8');

describe('the recorded figures npm run bench prints', () => {
  it('names a date the benchmarks document records, for every benchmark it runs', () => {
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
