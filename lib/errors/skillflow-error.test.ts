import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { invalidParameter, issuesFromZod, toEnvelope } from './skillflow-error.js';

const body = z.strictObject({
  requests: z.array(z.strictObject({ text: z.string().min(1) })),
  tags: z.record(z.string(), z.number()).optional(),
});

const issuesOf = (value: unknown) => {
  const parsed = body.safeParse(value);
  if (parsed.success) throw new Error('expected a failure');
  return issuesFromZod(parsed.error.issues);
};

describe('issuesFromZod', () => {
  it('names an unknown identifier-like key by its own path', () => {
    expect(issuesOf({ requests: [{ text: 'a', extra: 1 }] })).toEqual([
      { path: 'requests[0].extra', message: 'Unknown field.' },
    ]);
  });

  it('never quotes a key that is not identifier-like: the issue is at the object that holds it', () => {
    const issues = issuesOf({ requests: [{ text: 'a', '°À?E': 1, 'a b': 2 }] });
    expect(issues).toEqual([{ path: 'requests[0]', message: 'Holds an unknown field.' }]);
    expect(toEnvelope(invalidParameter(issues))).toEqual({
      error: {
        code: 'INVALID_PARAMETER',
        message: 'Invalid value at requests[0]: Holds an unknown field.',
        details: { issues: [{ path: 'requests[0]', message: 'Holds an unknown field.' }] },
      },
    });
  });

  it('stops a value path at a record key that is not identifier-like', () => {
    expect(issuesOf({ requests: [], tags: { ok: 'x', 'x<script>': 'y' } })).toEqual([
      { path: 'tags.ok', message: 'Invalid input: expected number, received string' },
      { path: 'tags', message: 'Holds an invalid value.' },
    ]);
  });
});
