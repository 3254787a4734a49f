import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonInput } from './input.js';
import { CliError } from './output.js';

/** The CliError `fn` throws, as plain fields. */
function failure(fn: () => unknown): { message: string; code: string | undefined } {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(CliError);
    return { message: (e as CliError).message, code: (e as CliError).code };
  }
  throw new Error('expected a CliError');
}

describe('parseJsonInput', () => {
  it('reads an inline object and an @file', () => {
    expect(parseJsonInput('{"name":"Bob"}')).toEqual({ name: 'Bob' });
    const dir = mkdtempSync(join(tmpdir(), 'cli-input-'));
    try {
      writeFileSync(join(dir, 'in.json'), '{"n":2}');
      expect(parseJsonInput(`@${join(dir, 'in.json')}`)).toEqual({ n: 2 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses text that is not JSON without quoting it', () => {
    expect(failure(() => parseJsonInput('name=s3cr3t-value'))).toEqual({
      message: `--input is not valid JSON: give a JSON object such as '{"name":"value"}', @file.json, or @- for stdin.`,
      code: 'INVALID_INPUT',
    });
  });

  it('refuses JSON that is not an object', () => {
    expect(failure(() => parseJsonInput('[1]', '--step-input'))).toEqual({
      message: '--step-input must be a JSON object.',
      code: 'INVALID_INPUT',
    });
  });
});
