import { z } from 'zod';
import { ERROR_CATALOGUE, type ErrorCode } from './catalogue.js';

/** Details are client-visible: never put secrets, stack traces or upstream bodies in them. */
export type ErrorDetails = Record<string, unknown>;

/** An error with a catalogue code. The only error type that carries a client-visible message. */
export class SkillflowError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;
  /** Milliseconds until a retry makes sense (429 Retry-After), when known. */
  readonly retryAfterMs: number | undefined;

  constructor(code: ErrorCode, message?: string, details: ErrorDetails = {}, retryAfterMs?: number) {
    super(message ?? ERROR_CATALOGUE[code].message);
    this.name = 'SkillflowError';
    this.code = code;
    this.details = details;
    this.retryAfterMs = retryAfterMs;
  }

  get status(): number {
    return ERROR_CATALOGUE[this.code].status;
  }

  get retryable(): boolean {
    return ERROR_CATALOGUE[this.code].retryable;
  }
}

/** The wire envelope of every error response, at the HTTP edge and in Temporal failures. */
export const ErrorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.string().describe('A code from the error catalogue (docs/errors.md).'),
      message: z.string(),
      details: z.record(z.string(), z.unknown()),
    }),
  })
  .describe('Every error response.');
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

export function toEnvelope(err: SkillflowError): ErrorEnvelope {
  return { error: { code: err.code, message: err.message, details: err.details } };
}

/** One validation issue: the failing path in dotted/bracket form plus a message. */
export interface FieldIssue {
  path: string;
  message: string;
  code?: string;
  /** At the HTTP edge: where the field was (`body`, `querystring`, `params`). */
  location?: string;
}

/** Formats a path array such as ['requests', 0, 'tlds', 2] as `requests[0].tlds[2]`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/** An INVALID_PARAMETER error listing every failing field. */
export function invalidParameter(issues: FieldIssue[], message?: string): SkillflowError {
  const first = issues[0];
  return new SkillflowError(
    'INVALID_PARAMETER',
    message ?? (first ? `Invalid value at ${first.path || '(root)'}: ${first.message}` : undefined),
    { issues },
  );
}

/** The parts of a zod issue (or of fastify's copy of one) that become field issues. */
export interface ZodIssueLike {
  path: ReadonlyArray<PropertyKey>;
  message: string;
  code?: string;
  /** Of an `unrecognized_keys` issue. */
  keys?: readonly string[];
}

/** A key that may be named in a path: an identifier-like name, never arbitrary user text. */
const NAMEABLE_KEY = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** The path up to (not including) the first key that is not {@link NAMEABLE_KEY}. */
function nameablePath(path: ReadonlyArray<PropertyKey>): { path: PropertyKey[]; cut: boolean } {
  const at = path.findIndex((p) => typeof p !== 'number' && !NAMEABLE_KEY.test(String(p)));
  return at < 0 ? { path: [...path], cut: false } : { path: path.slice(0, at), cut: true };
}

/**
 * Maps zod issues to field issues with bracketed paths (`requests[0].tlds`): the one mapping of
 * the HTTP edge (api/errors.ts) and the activity boundary ({@link parseOrThrow}). An unknown
 * key becomes one `Unknown field.` issue at its own path: zod's message would quote it. A path
 * never quotes a key that is not identifier-like (user text): it stops at the object that holds
 * such a key.
 */
export function issuesFromZod(issues: ReadonlyArray<ZodIssueLike>): FieldIssue[] {
  const seen = new Set<string>();
  return issues
    .flatMap((i): FieldIssue[] => {
      if (i.code === 'unrecognized_keys' && i.keys) {
        return i.keys.map((key) => {
          const named = nameablePath([...i.path, key]);
          return named.cut
            ? { path: formatPath(named.path), message: 'Holds an unknown field.' }
            : { path: formatPath(named.path), message: 'Unknown field.' };
        });
      }
      const named = nameablePath(i.path);
      return [{ path: formatPath(named.path), message: named.cut ? 'Holds an invalid value.' : i.message }];
    })
    .filter((issue) => {
      // Several keys cut at one object are one issue there.
      const id = `${issue.path}\n${issue.message}`;
      return seen.has(id) ? false : (seen.add(id), true);
    });
}

/** Parses `value` with a zod schema, or throws INVALID_PARAMETER naming every failing path. */
export function parseOrThrow<T>(
  schema: {
    safeParse(
      v: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: ReadonlyArray<ZodIssueLike> } };
  },
  value: unknown,
): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidParameter(issuesFromZod(parsed.error.issues));
  return parsed.data;
}
